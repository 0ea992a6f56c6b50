/**
 * What a bank CSV layout (bank-layouts.ts) says of an export: how it is recognised, and the reading
 * options it always needs.
 */
import type { Role } from './mapping.js'

export interface BankLayout {
  /** `nl-knab`: the country, then the bank. */
  id: string
  /** How the plan names it: `Knab (NL)`. */
  name: string
  /** The header's first names, in order, as the bank writes them (compared as header names are). */
  header?: string[]
  /** A bank without a header: its first transaction line, a pattern per field (as many fields). */
  firstLine?: RegExp[]
  /** Which column holds which field: by its name, or its number from 1 in a header-less file. */
  map?: Array<[Role, string]>
  dateFormat?: string
  decimalComma?: boolean
  /** Every amount's sign is the other way round: a card that writes a charge positive and a payment negative. */
  invertSign?: boolean
  /** Rows whose column holds one of these values are not movements (a reverted card payment), and why. */
  exclude?: { column: string; values: string[]; why: string }
}
