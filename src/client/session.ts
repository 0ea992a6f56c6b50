/** The calls before any credential: the service's health, a login, accepting an invitation (docs/people.md). */
import { authPaths, systemPaths } from '../api/paths.js'
import type { authApi } from '../api/routes/auth.js'
import type { systemApi } from '../api/routes/system.js'
import { routeCalls, type Sender } from './route-call.js'

export function sessionCalls(c: Sender) {
  const system = routeCalls<typeof systemApi>(c, systemPaths)
  const auth = routeCalls<typeof authApi>(c, authPaths)
  return {
    health: () => system('health', { auth: 'none' }).then((r) => r.data),
    token: (email: string, password: string) => auth('token', { auth: 'none', body: { email, password } }).then((r) => r.data),
    /** Accept an invitation: the new user's access token. */
    acceptInvite: (token: string, password: string) =>
      auth('acceptInvite', { auth: 'none', body: { token, password } }).then((r) => r.data),
  }
}
