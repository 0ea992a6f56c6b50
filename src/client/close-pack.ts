/** The typed calls of the auditor's pack and the close's document policy (client.ts: `client.closePack`, `client.closePolicy`; docs/closing.md). */
import type { ClosePolicy, ClosePolicyRequest } from '../domain/closing/document-policy-schemas.js'
import type { PackContents, PackSignature } from '../domain/closing/pack-schemas.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

const at = (month: string) => `/api-v1/close/${encodeURIComponent(month)}/pack`

export function closePackCalls(c: Requester) {
  return {
    contents: (month: string) => c.request<PackContents>('GET', at(month)).then((r) => r.data),
    /** A closer's call, as closing is: a login before a key. */
    sign: (month: string, manifest: Uint8Array) =>
      c
        .request<PackSignature>('POST', `${at(month)}/signature`, {
          body: { manifest_base64: Buffer.from(manifest).toString('base64') },
          auth: 'admin',
        })
        .then((r) => r.data),
  }
}

export function closePolicyCalls(c: Requester) {
  return {
    get: () => c.request<ClosePolicy>('GET', '/api-v1/close/policy').then((r) => r.data),
    /** The owner's call: a login before a key. */
    set: (body: ClosePolicyRequest) => c.request<ClosePolicy>('PUT', '/api-v1/close/policy', { body, auth: 'admin' }).then((r) => r.data),
  }
}
