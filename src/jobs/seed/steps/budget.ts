/** `budget` steps: a category's monthly budget over months (docs/budgets.md); the same budget again is `exists`. */
import { AppError } from '../../../kernel/errors.js'
import { currencyExponent } from '../../../kernel/currencies.js'
import { parseAmount } from '../../../kernel/money.js'
import type { StepHandler } from './handler.js'

export const budget: StepHandler<'budget'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const what = `budget of "${spec.category}" (${spec.monthly} a month${spec.from ? ` from ${spec.from}` : ''}${spec.to ? ` to ${spec.to}` : ''})`
    const monthly = typeof spec.monthly === 'number' ? spec.monthly : spec.monthly.replace('\u2212', '-')
    if (state.dryRun) {
      const listed = await state.client.budgets
        .list({ version: spec.version, category: spec.category, from: spec.from, to: spec.to })
        .catch((e: unknown) => {
          if (e instanceof AppError && e.code === 'not_found') return { version: spec.version ?? '', budgets: [] }
          throw e
        })
      const currency = spec.currency ?? listed.budgets[0]?.currency
      const minorOf = (v: string | number, c: string) => {
        const r = parseAmount(v, currencyExponent(c))
        return r.ok ? r.minor : undefined
      }
      const want = currency === undefined ? undefined : minorOf(monthly, currency)
      // Without --from/--to the months are the service's to choose: a dry run can only tell "would create or update".
      const same =
        listed.budgets.length > 0 &&
        want !== undefined &&
        listed.budgets.every(
          (b) => b.currency === currency && b.rollover === (spec.rollover === true) && minorOf(b.amount, b.currency) === want,
        )
      state.setResult(step, { version: listed.version || spec.version, category: spec.category })
      return { ...base, status: same ? 'exists' : listed.budgets.length ? 'would update' : 'would create', detail: what }
    }
    const r = await state.client.budgets.set({
      category: spec.category,
      monthly,
      currency: spec.currency,
      from: spec.from,
      to: spec.to,
      version: spec.version,
      rollover: spec.rollover,
    })
    state.setResult(step, { version: r.version, category: r.category })
    const status = r.created === 0 && r.updated === 0 ? 'exists' : r.updated === 0 && r.unchanged === 0 ? 'created' : 'updated'
    return {
      ...base,
      status,
      detail: `${what}, version ${r.version}: ${r.created} new, ${r.updated} changed, ${r.unchanged} unchanged month(s)`,
    }
  },
}
