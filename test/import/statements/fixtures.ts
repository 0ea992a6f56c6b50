/**
 * Reading the real bank files of the bank-file corpus (test/helpers/bank-files.ts; never copied
 * into the project) and summing what a parser returns, for the statement-parser tests.
 */
import { readFileSync } from 'node:fs'
import type { ImportedTransaction, ParsedStatement } from '../../../src/import/statements/types.js'
import { bankFile } from '../../helpers/bank-files.js'

export { BANK_FILES, HAS_BANK_FILES, listBankFiles } from '../../helpers/bank-files.js'

/** The bytes of a file of the corpus (only in tests skipped when it is missing). */
export function fixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(bankFile(path)))
}

export const bytes = (text: string) => new TextEncoder().encode(text)

/** Latin-1 bytes of a string whose characters are all below U+0100 (0x80 -> byte 0x80). */
export const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

export const lines = (statements: ParsedStatement[]): ImportedTransaction[] => statements.flatMap((s) => s.transactions)

export const sum = (txs: ImportedTransaction[]) => txs.reduce((a, t) => a + t.amountMinor, 0)

export function dateRange(txs: ImportedTransaction[], key: 'date' | 'valueDate' = 'date'): [string, string] {
  const dates = txs.map((t) => t[key] ?? t.date).sort()
  return [dates[0], dates[dates.length - 1]]
}

/** Whether opening + lines = closing, using the statement's own balance lines. */
export function reconciles(s: ParsedStatement): boolean {
  if (s.openingBalance === undefined || s.closingBalance === undefined) throw new Error('the statement has no opening or closing balance')
  return s.openingBalance + sum(s.transactions) === s.closingBalance
}
