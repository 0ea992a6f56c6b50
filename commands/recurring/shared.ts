/** What the recurring verbs share: an item's columns and its interval as the flags write it. */
import { idColumn } from '../../src/cli/columns.js'
import { showAmount } from '../../src/cli/money.js'
import type { Column } from '../../src/cli/output.js'
import type { RecurringItem } from '../../src/domain/recurring/schemas.js'

export const intervalWord = (i: string) => i.replaceAll('_', '-')

export const itemColumns: Column<RecurringItem>[] = [
  idColumn((i) => i.id),
  { header: 'name', value: (i) => i.name, wide: true },
  { header: 'interval', value: (i) => intervalWord(i.interval) },
  {
    header: 'amount',
    value: (i) => showAmount(i.amount, i.currency, { code: true }),
    tty: (i) => showAmount(i.amount, i.currency, { group: true, code: true }),
    align: 'right',
    negative: (i) => i.amount < 0,
    csv: [
      { header: 'amount', value: (i) => showAmount(i.amount, i.currency) },
      { header: 'currency', value: (i) => i.currency },
    ],
  },
  // The date it is due next: what the list is for, kept before the interval on a narrow terminal.
  { header: 'next', value: (i) => i.next_expected, whole: true },
  { header: 'status', value: (i) => (i.missed ? `missed: ${i.missed.message}` : i.status), wide: true },
  { header: 'seen', value: (i) => i.occurrences, align: 'right', drop: 2 },
  { header: 'last seen', value: (i) => i.last_seen ?? '', drop: 1 },
  { header: 'category', value: (i) => i.category ?? '', drop: 3 },
]
