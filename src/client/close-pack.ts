/** The typed calls of the auditor's pack (client.ts holds them as `client.closePack`; docs/closing.md). */
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
