/** What the verbs of `finctl rates` share: a rate's columns. */
import type { Column } from '../../src/cli/output.js'
import type { ExchangeRate } from '../../src/domain/rates/schemas.js'

export const rateColumns: Column<ExchangeRate>[] = [
  { header: 'date', value: (r) => r.date },
  { header: 'currency', value: (r) => r.currency },
  { header: 'rate', value: (r) => r.rate, align: 'right' },
  { header: 'source', value: (r) => r.source },
]
