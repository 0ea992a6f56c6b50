/**
 * A CSV read as `tx import` reads it, without the service: the plan (settled early, as the import
 * plans a file) and every row through the mapper, for the bank-layout tests (test/import). The sum
 * is per currency when a file holds several: two currencies are never added.
 */
import { RowMapper } from '../../src/import/map-rows.js'
import { planImport, planImportBytes, type CsvMapping, type ImportPlan } from '../../src/import/plan.js'
import { readRecords, readRecordsBytes, type CsvRecord } from '../../src/import/read-rows.js'
import { formatMinor } from '../../src/kernel/money.js'

async function mapAll(plan: ImportPlan, records: AsyncIterable<CsvRecord>, currency: string) {
  const mapper = new RowMapper(plan, { accountId: 'acct', currency })
  const rows = []
  const rejects = []
  for await (const rec of records) {
    const r = mapper.map(rec)
    if (r?.ok) rows.push(r)
    else if (r) rejects.push(`${r.line}: ${r.reason}`)
  }
  const sums = new Map<string, number>()
  for (const r of rows) {
    const code = r.request.currency_code ?? currency
    sums.set(code, (sums.get(code) ?? 0) + r.minor)
  }
  const each = [...sums].map(([code, minor]) => `${formatMinor(minor, 2)} ${code}`)
  return {
    plan,
    notes: plan.notes.join('\n'),
    rows,
    rejects,
    skipped: mapper.skipped,
    count: rows.length,
    /** "986.63"; a file of several currencies: "137.05 EUR, 0.00 USD". */
    sum: each.length > 1 ? each.join(', ') : formatMinor([...sums.values()][0] ?? 0, 2),
  }
}

/** A file read as the import reads it, into an account in `currency`. */
export async function readLayoutFile(path: string, o: CsvMapping = {}, currency = 'EUR') {
  const plan = await planImport(path, o, true)
  return mapAll(plan, readRecords(path, plan.layout), currency)
}

/** Bytes (an upload) read the same way. */
export async function readLayoutBytes(bytes: Uint8Array, o: CsvMapping = {}, currency = 'EUR') {
  const plan = await planImportBytes(bytes, o)
  return mapAll(plan, readRecordsBytes(bytes, plan.layout), currency)
}
