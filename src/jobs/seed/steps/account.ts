/** `account` steps: a bank account, found again by its name (or one of `renamed_from`). */
import type { Client } from '../../../client/client.js'
import type { BankAccount } from '../../../domain/schemas.js'
import { accountName, describePatch, diffAccount, findAccount } from '../plan.js'
import type { StepOutcome } from '../report.js'
import type { StepHandler, SeedState } from './handler.js'

export const account: StepHandler<'account'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const match = findAccount(state.world.accounts, spec)
    const dry = state.dryRun
    if (match.kind === 'ambiguous') {
      return {
        ...base,
        status: state.failed,
        detail: `${match.ids.length} bank accounts are named "${match.name}" (${match.ids.join(', ')}): the seed cannot tell which is its own; rename all but one`,
      }
    }
    let account: BankAccount | undefined
    let outcome: StepOutcome
    if (match.kind === 'none') {
      if (dry) {
        state.setResult(step, { id: undefined, name: accountName(spec), currency_code: spec.currency_code })
        return {
          ...base,
          status: 'would create',
          detail: `bank account "${accountName(spec)}" (${spec.account_type}, ${spec.currency_code})`,
        }
      }
      account = await state.client.accounts.create({
        name: accountName(spec),
        account_type: spec.account_type,
        currency_code: spec.currency_code,
        institution_name: spec.institution_name,
        account_number: spec.account_number,
        opening_balance: spec.opening_balance,
        opening_balance_date: spec.opening_balance_date,
        opening_exchange_rate: spec.opening_exchange_rate,
      })
      state.world.accounts.push(account)
      if (spec.status !== undefined && spec.status !== account.status)
        account = await replaceAccount(state, account.id, { status: spec.status })
      outcome = {
        ...base,
        status: 'created',
        id: account.id,
        detail: `bank account "${account.name}" (${account.account_type}, ${account.currency_code})`,
      }
    } else {
      account = match.account
      const diff = diffAccount(account, spec)
      if (diff.fixed.length) {
        return {
          ...base,
          status: state.failed,
          id: account.id,
          detail: `bank account "${account.name}" differs where the service cannot change it: ${diff.fixed.join('; ')}`,
        }
      }
      const changes = describePatch(diff.patch)
      if (!changes) outcome = { ...base, status: 'exists', id: account.id, detail: `bank account "${account.name}"` }
      else if (dry) outcome = { ...base, status: 'would update', id: account.id, detail: `bank account "${account.name}": ${changes}` }
      else {
        account = await replaceAccount(state, account.id, diff.patch)
        outcome = { ...base, status: 'updated', id: account.id, detail: `bank account "${account.name}": ${changes}` }
      }
    }
    const name = outcome.status === 'would update' ? accountName(spec) : account.name
    state.setResult(step, { id: account.id, name, currency_code: account.currency_code })
    state.env(step, 'id', account.id)
    return outcome
  },
}

/** Update the account and the world's copy of it. */
async function replaceAccount(state: SeedState, id: string, patch: Parameters<Client['accounts']['update']>[1]): Promise<BankAccount> {
  const updated = await state.client.accounts.update(id, patch)
  state.world.accounts = state.world.accounts.map((a) => (a.id === id ? updated : a))
  return updated
}
