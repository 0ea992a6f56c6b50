/** The typed calls of the auditor's pack and the close's document policy (client.ts: `client.closePack`, `client.closePolicy`; docs/closing.md). */
import { closePaths } from '../api/paths.js'
import type { closeApi } from '../api/routes/close.js'
import type { ClosePolicyRequest } from '../domain/closing/document-policy-schemas.js'
import { routeCalls, type Sender } from './route-call.js'

export function closePackCalls(c: Sender) {
  const call = routeCalls<typeof closeApi>(c, closePaths)
  return {
    contents: (month: string) => call('pack', { params: { month } }).then((r) => r.data),
    /** A closer's call, as closing is: a login before a key. */
    sign: (month: string, manifest: Uint8Array) =>
      call('signPack', {
        params: { month },
        body: { manifest_base64: Buffer.from(manifest).toString('base64') },
        auth: 'admin',
      }).then((r) => r.data),
  }
}

export function closePolicyCalls(c: Sender) {
  const call = routeCalls<typeof closeApi>(c, closePaths)
  return {
    get: () => call('policy').then((r) => r.data),
    /** The owner's call: a login before a key. */
    set: (body: ClosePolicyRequest) => call('setPolicy', { body, auth: 'admin' }).then((r) => r.data),
  }
}
