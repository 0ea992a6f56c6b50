/**
 * docs/openapi.json: the OpenAPI document `GET /openapi.json` serves, committed beside docs/api.md so
 * that a change of the API shows in review. `npm run docs:openapi` writes it; a test fails when the
 * committed file differs from what the app serves.
 */
import { openCore } from '../../src/core.js'

export const OPENAPI_FILE = 'docs/openapi.json'

/** The document as the app serves it, from a core on an empty in-memory database, as indented JSON. */
export async function openApiDocument(): Promise<string> {
  const core = await openCore(':memory:')
  try {
    const res = await core.app.fetch(new Request('http://finctl.local/openapi.json'))
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`)
    return `${JSON.stringify(await res.json(), null, 2)}\n`
  } finally {
    await core.close()
  }
}
