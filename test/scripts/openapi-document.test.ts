/** docs/openapi.json is the document the app serves (else run `npm run docs:openapi`). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPENAPI_FILE, openApiDocument } from '../../scripts/docs/openapi-document.js'

describe('docs/openapi.json', () => {
  it('is what GET /openapi.json serves', async () => {
    const served = JSON.parse(await openApiDocument())
    const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../..', OPENAPI_FILE), 'utf8'))
    // Path by path first, so that a failure names the route whose schema moved.
    expect(Object.keys(committed.paths)).toEqual(Object.keys(served.paths))
    for (const path of Object.keys(served.paths)) expect(committed.paths[path], path).toEqual(served.paths[path])
    expect(committed).toEqual(served)
  })
})
