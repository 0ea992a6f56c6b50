/**
 * The CLI in process (test/helpers/in-process-cli.ts): an --atomic import reads the file twice (check, then send). Each pass numbers the
 * identical rows of the file from 1 again, so the rows it creates carry the same identities as a
 * plain import's: importing the file again afterwards creates nothing. (Before, the second pass
 * went on counting from the first, and every row came back as new.)
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('an --atomic import, then the same file again', () => {
  const sb = new InProcessSandbox('atomic-plain')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
  }, 120_000)
  afterAll(() => sb.cleanup())

  it('creates nothing the second time', async () => {
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Atomic', '--type', 'checking', '--json'])).id
    const file = join(sb.dir, 'atomic.csv')
    writeFileSync(file, 'Date,Description,Amount\n2026-01-05,Coffee,-4.50\n2026-01-05,Coffee,-4.50\n2026-01-06,Refund,12.00\n')
    const first = await sb.json<{ created: number }>(['tx', 'import', file, '--account', acct, '--atomic', '--json'])
    expect(first.created).toBe(3)
    const again = await sb.json<{ created: number; already_imported: number }>(['tx', 'import', file, '--account', acct, '--json'])
    expect([again.created, again.already_imported]).toEqual([0, 3])
    expect(await sb.json<unknown[]>(['tx', 'list', '--account', acct, '--all', '--json'])).toHaveLength(3)
  })
})
