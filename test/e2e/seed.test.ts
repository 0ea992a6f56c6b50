/**
 * End-to-end: `finctl seed` with the built CLI through `finctl serve`: created, then found again.
 * The embedded runs on the shipped example (create, exists, update, a broken file refused,
 * --env-out, --dry-run) are in process: test/commands/seed.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, fastKey, startServe } from '../helpers/cli.js'

describe('finctl seed end to end (remote)', () => {
  let sb: Sandbox

  const statuses = (report: { steps: Array<{ step: string; status: string }> }) =>
    Object.fromEntries(report.steps.map((s) => [s.step, s.status]))
  beforeAll(async () => {
    sb = new Sandbox('seed')
    await sb.ok(['init', '--no-input', '--currency', 'USD'])
    // The init key allows 60 requests a minute; these runs make more.
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  it('seeds a remote target through finctl serve the same way', async () => {
    const server = await startServe(sb, sb.database)
    try {
      const p = sb.profiles().profiles.local
      const remoteEnv = { FINCTL_API_KEY: p.api_key, FINCTL_TOKEN: p.access_token, COMPANY_CURRENCY: 'USD' }
      const remote = join(sb.dir, 'remote.yaml')
      writeFileSync(
        remote,
        [
          'steps:',
          '  - account: remote',
          '    name: Remote ${env.COMPANY_CURRENCY}',
          '    account_type: checking',
          '    currency_code: ${env.COMPANY_CURRENCY}',
          '  - transactions: spend',
          '    bank_account_id: ${accounts.remote.id}',
          '    generate: { count: 5, seed: remote, from: 2026-01-01, to: 2026-01-31, amount: { min: "-50.00", max: "-1.00" }, merchants: [A, B] }',
          '  - api_key: remote_ci',
          '    scopes: [read, transactions]',
          '',
        ].join('\n'),
      )
      const first = await sb.run(['--base-url', server.url, 'seed', remote, '--json'], { env: remoteEnv })
      expect(first.code, first.stderr).toBe(0)
      const a = JSON.parse(first.stdout)
      expect(Object.values(statuses(a))).toEqual(['created', 'created', 'created'])
      expect(first.stderr).toContain(new URL(server.url).host)
      sb.remember(a.env.KEYS_REMOTE_CI_KEY)
      const second = await sb.run(['--base-url', server.url, 'seed', remote, '--json'], { env: remoteEnv })
      expect(second.code, second.stderr).toBe(0)
      const b = JSON.parse(second.stdout)
      expect(Object.values(statuses(b))).toEqual(['exists', 'exists', 'exists'])
      expect(b.env.TRANSACTIONS_SPEND_IDS).toBe(a.env.TRANSACTIONS_SPEND_IDS)
      expect(b.env.KEYS_REMOTE_CI_KEY).toBeUndefined()
    } finally {
      await server.stop()
    }
  })
})
