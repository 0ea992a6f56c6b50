/**
 * Rows of amount 0. Most are bookings the bank made without money moving (a card hold, a card
 * check, a fee waived) and are imported as transactions of 0.00, as a statement of the same bank
 * keeps them. One whose text names the account's periodic closing or a balance (Sparkasse's 0,00
 * `ABSCHLUSS`, "Rechnungsabschluss", "Closing balance") is no movement: it is skipped, with why.
 */
import { balanceKind } from './balance-rows.js'
import { normalizeHeader } from './mapping.js'

/** Words of a closing or settlement line (as normalizeHeader writes them). */
const CLOSING = new Set([
  'abschluss',
  'rechnungsabschluss',
  'kontoabschluss',
  'quartalsabschluss',
  'abrechnung',
  'entgeltabrechnung',
  'closing',
  'cloture',
  'arrete',
  'afsluiting',
  'cierre',
  'liquidacion',
  'chiusura',
])

/** Why a row of amount 0 is no movement (one of its texts names a closing or a balance), or undefined: it is a booking. */
export function zeroRowReason(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const t = text.trim()
    if (!t) continue
    if (
      balanceKind(t) ||
      normalizeHeader(t)
        .split(' ')
        .some((w) => CLOSING.has(w))
    )
      return `an amount of 0 on a closing or balance line, not a movement (its text: ${JSON.stringify(t.slice(0, 60))})`
  }
  return undefined
}
