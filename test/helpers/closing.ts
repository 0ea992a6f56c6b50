/**
 * What the close tests of test/commands/close share: the month they close (last month), its days,
 * and the books of the close-record tests (records.test.ts in process, records-served.test.ts
 * through `finctl serve`): three rows in that month, one of them updated (an audit entry before
 * the close, for the chain's head).
 */
import { monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
import type { InProcessSandbox } from './in-process-cli.js'

/** Last month: closed by the tests, a month no row of today reaches. */
export const M = previousMonth(new Date().toISOString().slice(0, 7))
/** Its last day. */
export const END = monthEnd(M)
export const day = (d: number) => `${M}-${String(d).padStart(2, '0')}`
export const FORCE = ['--force', '--reason', 'checked by hand']

/** An export as the close records it. */
export interface Recorded {
  format: string
  file_name: string
  sha256: string
  rows: number
  bytes: number
}
/** An export as `verify --close --json` checks it. */
export interface Checked extends Recorded {
  result: string
  why: string
}

/** Init, an account and the three rows; their ids, in date order. */
export async function recordBooks(sb: InProcessSandbox): Promise<string[]> {
  await sb.ok(['init', '--company', 'Record Co', '--currency', 'USD', '--email', 'o@record.test', '--password-stdin', '--no-input'], {
    input: 'password-for-records\n',
  })
  const account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
  const ids: string[] = []
  for (const [d, amount, what] of [
    [3, '-10.00', 'Paper'],
    [9, '1250.00', 'Invoice 7'],
    [20, '-99.95', 'Cloud'],
  ] as const)
    ids.push(await sb.newTransaction(account, day(d), amount, what))
  await sb.ok(['tx', 'update', ids[0], '--category', 'Office', '--json'])
  return ids
}
