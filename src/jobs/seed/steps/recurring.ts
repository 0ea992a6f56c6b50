/** `recurring` steps: a recurring item added by hand (docs/forecast.md), found again by its name; a changed one is replaced. */
import type { RecurringItem } from '../../../domain/recurring/schemas.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import { parseAmount } from '../../../kernel/money.js'
import type { StepHandler } from './handler.js'

export const recurring: StepHandler<'recurring'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const name = spec.name ?? step.name
    const base = { step: step.name, kind: step.kind }
    const found = (await state.client.recurring.list({ status: 'accepted' })).filter((i) => i.name === name && i.source === 'manual')
    const same = (i: RecurringItem) => {
      const currency = spec.currency ?? i.currency
      const want = parseAmount(spec.amount, currencyExponent(currency))
      const have = parseAmount(i.amount, currencyExponent(i.currency))
      return (
        want.ok &&
        have.ok &&
        want.minor === have.minor &&
        currency === i.currency &&
        i.interval === spec.interval &&
        i.anchor_date === spec.start &&
        (spec.category ?? null) === i.category &&
        (spec.bank_account_id ?? null) === i.bank_account_id &&
        (spec.ends_on ?? null) === i.ends_on
      )
    }
    const what = `recurring "${name}" (${spec.amount} ${spec.interval.replaceAll('_', ' ')} from ${spec.start})`
    const kept = found.find(same)
    if (kept) {
      state.setResult(step, { id: kept.id, name })
      return { ...base, status: 'exists', id: kept.id, detail: what }
    }
    if (state.dryRun) {
      state.setResult(step, { id: undefined, name })
      return { ...base, status: found.length ? 'would update' : 'would create', detail: what }
    }
    for (const old of found) await state.client.recurring.delete(old.id)
    const item = await state.client.recurring.add({
      name,
      amount: typeof spec.amount === 'number' ? spec.amount : spec.amount.replace('\u2212', '-'),
      interval: spec.interval,
      start: spec.start,
      match: spec.match,
      category: spec.category,
      bank_account_id: spec.bank_account_id,
      currency: spec.currency,
      ends_on: spec.ends_on,
    })
    state.setResult(step, { id: item.id, name })
    state.env(step, 'id', item.id)
    return { ...base, status: found.length ? 'updated' : 'created', id: item.id, detail: what }
  },
}
