/** The typed calls of people: users, roles, invitations (client.ts holds them as `client.users`; docs/people.md). */
import { usersPaths } from '../api/paths.js'
import type { usersApi } from '../api/routes/users.js'
import type { CreatedInvitation, InviteRequest, User } from '../domain/users/schemas.js'
import type { ProposedInvitation } from '../domain/approvals/schemas.js'
import { doneOf, outcome } from './approvals.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type SetRole = RouteInput<typeof usersApi.setRole>['body']

export function userCalls(c: Sender) {
  const call = routeCalls<typeof usersApi>(c, usersPaths)
  /** An invitation, or under an approval policy (a role that can approve) its proposal with the token, shown once. */
  const requestInvite = (body: InviteRequest) =>
    call('invite', { auth: 'admin', body }).then((r) => outcome<CreatedInvitation, ProposedInvitation>(r))
  /** A role change, or under an approval policy (a role that can approve) its proposal. */
  const requestSetRole = (user: string, role: string) =>
    // The role as the user typed it: the service checks it and names it in a 400.
    call('setRole', { auth: 'admin', params: { id: user }, body: { role: role as SetRole['role'] } }).then((r) => outcome<User>(r))
  return {
    me: () => call('me').then((r) => r.data),
    list: () => call('list', { auth: 'admin' }).then((r) => r.data),
    invite: (body: InviteRequest) => requestInvite(body).then(doneOf),
    requestInvite,
    setRole: (user: string, role: string) => requestSetRole(user, role).then(doneOf),
    requestSetRole,
    disable: (user: string) => call('disable', { auth: 'admin', params: { id: user } }).then((r) => r.data),
    invitations: (o: { all?: boolean } = {}) =>
      call('invitations', { auth: 'admin', query: { all: o.all ? 'true' : undefined } }).then((r) => r.data),
    revokeInvite: (id: string) => call('revokeInvite', { auth: 'admin', params: { id } }).then((r) => r.data),
  }
}
