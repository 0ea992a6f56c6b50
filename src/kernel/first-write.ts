/**
 * A check run inside the first write transaction a piece of work opens (an agent's approved request
 * replayed as its approver: docs/agents.md): it holds the write lock the write itself takes, so what
 * it checks cannot move before the write. The store's `writeTransaction` calls `atFirstWrite`.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

type Check = (trx: unknown) => Promise<void>
interface Pending {
  check: Check
  ran: boolean
}

const pending = new AsyncLocalStorage<Pending>()

/** Run `fn` with `check` waiting for its first write transaction; `ran()`: whether one came. */
export async function checkedAtFirstWrite<T>(check: Check, fn: () => Promise<T>): Promise<{ value: T; ran: boolean }> {
  const state: Pending = { check, ran: false }
  const value = await pending.run(state, fn)
  return { value, ran: state.ran }
}

/** Inside every write transaction, before its work: the waiting check, once. */
export async function atFirstWrite(trx: unknown): Promise<void> {
  const state = pending.getStore()
  if (!state || state.ran) return
  state.ran = true
  await state.check(trx)
}
