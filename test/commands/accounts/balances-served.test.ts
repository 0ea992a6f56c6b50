/**
 * The case through `finctl serve`, the CLI in process: in the demo company's USD account,
 * `tx create --amount -120 --currency EUR --exchange-rate 1.05` moves `accounts get`, `accounts list`
 * and `reports summary` alike, by -126.00 USD, as on the embedded target
 * (test/commands/accounts/balances.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balanceViews, eurOnTheDemoAccount } from '../../helpers/balance-views.js'
import { startServe, stopServeAndCleanup, type ServeProcess } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('a EUR transaction on the demo USD account', () => {
  let sb: InProcessSandbox
  let server: ServeProcess | undefined
  let account: string
  let before: number

  beforeAll(async () => {
    sb = new InProcessSandbox('balances')
    ;({ account, before } = await eurOnTheDemoAccount(sb))
  })
  afterAll(() => stopServeAndCleanup(server, sb))

  it('through finctl serve: the same figures', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    expect(await balanceViews(sb, account, ['--profile', 'remote'])).toEqual({
      get: before - 12600,
      list: before - 12600,
      summary: before - 12600,
    })
  })
})
