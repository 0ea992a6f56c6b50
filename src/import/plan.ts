/**
 * The import's plan stage: one pass over the start of a file (or all of it) decides how every row
 * is read: encoding, delimiter, header row, column map, date format, decimal mark, the rows that are
 * no movements, and the mapping's own choices (--where, --invert-sign, --indicator-debit). The map
 * stage (map-rows.ts) then reads each row by the plan alone.
 */
import { stat } from 'node:fs/promises'
import { detectDecimalMark, type DecimalMark } from './amount.js'
import { readRecordChunks, readRecordChunksBytes, sniffLayout, sniffLayoutBytes, type CsvLayout, type CsvRecord } from './read-rows.js'
import { DateDetector, formatFromFlag, type DateFormat } from './dates.js'
import { mapHeader, type ColumnMap, type Role } from './mapping.js'
import { SignCounter, signsNote, type ColumnSigns } from './debit-credit.js'
import { columnName, columnsNote, EVIDENCE_ROWS } from './column-evidence.js'
import { chooseColumns } from './column-choice.js'
import { encodingNote } from './decode.js'
import { IndicatorFinder } from './indicator.js'
import { markOf } from './marks.js'
import { rows } from './plan-words.js'
import { findHeaderRow, HEADER_WITHIN, type HeaderRow } from './header-row.js'
import { recogniseLayout, withLayout } from './layouts.js'
import { currencyCounts, headerCurrency, preambleCurrency, type FileCurrency } from './file-currency.js'
import { AccountTally, isChosenAccount } from './own-account.js'
import { RecordTypeFinder } from './balance-rows.js'
import type { BalancePlan } from './money-readings.js'
import {
  balanceOf,
  balanceReason,
  cell,
  columnIndex,
  DATE_LIKE,
  excludedReason,
  ImportError,
  notTransaction,
  recordTypeReason,
} from './row-text.js'

export { ImportError } from './row-text.js'

export type { CsvMapping, ImportPlan } from './plan-shape.js'
import type { CsvMapping, ImportPlan } from './plan-shape.js'

/** The plan of its import; `settle`: stop as soon as its decisions are final (ImportPlan.settledEarly). */
export async function planImport(path: string, o: CsvMapping = {}, settle = false): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = await sniffLayout(path, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunks(path, layout), o, settle ? { bytes: (await stat(path)).size } : undefined)
}

/** `planImport` over bytes (an upload): header row, column map, date format and decimal mark over every row. */
export async function planImportBytes(bytes: Uint8Array, o: CsvMapping = {}): Promise<ImportPlan> {
  let layout: CsvLayout
  try {
    layout = sniffLayoutBytes(bytes, { encoding: o.encoding, delimiter: o.delimiter })
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
  return planRecords(layout, readRecordChunksBytes(bytes, layout), o)
}

/** What the user is told when data rows have more or fewer fields than the header. */
function raggedNote(ragged: number, read: number, early: boolean, first: CsvRecord, headerFields: number): string {
  const which =
    read === 1 && !early
      ? 'the one row has'
      : `${early ? `${ragged} of the first ${rows(read)}` : ragged === read ? `all ${rows(read)}` : `${ragged} of ${rows(read)}`} ${ragged === 1 ? 'has' : 'have'}`
  return `ragged: ${which} a number of fields other than the header's ${headerFields} (line ${first.line} has ${first.fields.length}); columns are matched by position from the left, --map FIELD=-N counts from the right end of each row`
}

/** Amount samples the decimal mark is decided from. */
const AMOUNT_SAMPLES = 2000

/**
 * The plan over any source of records, a chunk at a time (a file, an upload in memory): the plan of
 * the import. With `settle` it stops as soon as nothing later in the file could change a decision
 * (see `ImportPlan.settledEarly`).
 */
export async function planRecords(
  layout: CsvLayout,
  chunks: AsyncIterable<CsvRecord[]>,
  o: CsvMapping = {},
  settle?: { bytes: number },
): Promise<ImportPlan> {
  const notes: string[] = []
  notes.push(`${encodingNote(layout.encoding)}, delimiter ${JSON.stringify(layout.delimiter)}`)
  /** --date-format's format: a row whose date has its layout's shape is a transaction. */
  let flagFormat = dateFormatOf(o.dateFormat)
  /** A bank layout the file was recognised as, and which of its choices the flags gave themselves. */
  let layoutName: string | undefined
  let layoutNote: string | undefined
  let given = { dateFormat: true, decimalComma: true, invertSign: true }
  /** Rows a layout says are no movements, by a column's value (bank-layouts.ts `exclude`). */
  let excluded: ImportPlan['exclude']
  const lines = (n: number) => `${n} line${n === 1 ? '' : 's'}`
  const noHeaderRow = (where: string) =>
    new ImportError(
      `found no header row in ${where} (read with the delimiter ${JSON.stringify(layout.delimiter)}): check --delimiter, or give --skip-lines N (the lines before the header), --no-header (the file has none: name columns by number, --map date=1) or --map field=Column`,
    )
  let header: string[] | undefined
  let headerLine = 0
  /** A file without a header row: where its transactions start, and whether --no-header said so. */
  let headerless: Extract<HeaderRow, { kind: 'none' }> | undefined
  /** The header row names no column the mapping knows: its columns are decided by their values. */
  let unknownNames = false
  /** Lines before the header (or the first transaction), where a currency may be named. */
  let preamble: CsvRecord[] = []
  /** A currency column's codes over the rows planned. */
  const codes = new Map<string, number>()
  let map: ColumnMap | undefined
  let where: Array<[number, string]> = []
  /** Records after the header, kept aside until the columns are decided from their values (column-evidence.ts). */
  let pending: CsvRecord[] | undefined
  /** Words the columns line adds to a field found by its values. */
  const how: Partial<Record<Role, string>> = {}
  /** Columns a row's description falls back on when its own cells are empty (column-choice.ts). */
  let fallbacks: number[] = []
  /** Balance and turnover rows are found by the file's signals unless --where chooses the rows. */
  const auto = !o.where?.length
  let recordTypes: RecordTypeFinder | undefined
  /** A running balance the amounts chain with, and whether it showed every sign written the other way. */
  let balance: BalancePlan | undefined
  let invertedByBalance = false
  let indicators: IndicatorFinder | undefined
  const dates = new DateDetector()
  const amounts: string[] = []
  const signs = { debit: new SignCounter(), credit: new SignCounter() }
  const skipped: ImportPlan['skipped'] = []
  let dataRows = 0
  let filtered = 0
  let seen = 0
  /** Data rows whose number of fields differs from the header's, and the first of them. */
  let ragged = 0
  let firstRagged: CsvRecord | undefined
  /** Characters of the records planned (fields and delimiters), to estimate the rows of the rest. */
  let chars = 0
  let settledEarly = false
  // The decisions are final once the columns are decided, one date format reads more rows than any
  // other (a later row it does not read is rejected by the import) and the amounts the decimal
  // mark is decided from are in; never before EVIDENCE_ROWS rows, so a small file is read whole.
  const settled = () =>
    dataRows >= EVIDENCE_ROWS && (o.dateFormat !== undefined || dates.settled) && (o.decimalComma || amounts.length >= AMOUNT_SAMPLES)
  const count = (rec: CsvRecord) => {
    if (settle) for (const f of rec.fields) chars += f.length + 1
  }
  // --account-number: only the rows of that account (own-account.ts), as --where would choose them.
  const chosen = (fields: string[]) =>
    o.accountNumber === undefined || map?.account === undefined || isChosenAccount(cell(fields, map.account), o.accountNumber)
  const inScope = (fields: string[]) => !where.some(([i, v]) => cell(fields, i) !== v) && chosen(fields)
  const accounts = new AccountTally()

  /** The columns the header leaves open, from the values of the records kept aside. */
  const decideColumns = (records: CsvRecord[]) => {
    const m = map!
    const h = header!
    // Rows a bank layout says are no movements (PayPal's authorizations) are no evidence of how movements read.
    const rows = records.map((r) => r.fields).filter((f) => inScope(f) && !excludedReason(excluded, h, f))
    const choice = chooseColumns(h, m, rows, new Set((o.map ?? []).map(([r]) => r)), {
      format: flagFormat,
      headerless: headerless !== undefined,
      ...(o.liability ? { liability: true } : {}),
      ...(o.noBalanceCheck ? { noBalanceCheck: true } : {}),
      ...(o.invertSign ? { invertSign: true } : {}),
    })
    Object.assign(how, choice.how)
    notes.push(...choice.notes)
    fallbacks = choice.fallbacks
    balance = choice.balance
    if (choice.invert) invertedByBalance = true
    if (auto)
      recordTypes = new RecordTypeFinder(
        h,
        new Set(
          Object.values(m)
            .flat()
            .filter((i): i is number => typeof i === 'number' && i >= 0),
        ),
      )
    indicators = new IndicatorFinder(h, m, o.indicatorDebit)
  }

  /** One record after the columns are decided; true: the plan is settled, stop reading. */
  const plan = (rec: CsvRecord): boolean => {
    if (settle && settled()) {
      settledEarly = true
      return true
    }
    count(rec)
    if (!inScope(rec.fields)) {
      filtered++
      return false
    }
    const date = cell(rec.fields, map!.date)
    if (!DATE_LIKE.test(date, flagFormat)) {
      skipped.push({ line: rec.line, reason: notTransaction(rec.fields) })
      return false
    }
    const off = excludedReason(excluded, header!, rec.fields)
    if (off) {
      skipped.push({ line: rec.line, reason: off })
      return false
    }
    if (auto) {
      const balance = balanceOf(rec.fields, map!)
      recordTypes!.add(rec.fields, rec.line, balance !== undefined)
      if (balance) {
        skipped.push({ line: rec.line, reason: balanceReason(balance) })
        return false
      }
    }
    dataRows++
    if (rec.fields.length !== header!.length && ragged++ === 0) firstRagged = rec
    dates.add(date)
    if (map!.account !== undefined) accounts.add(cell(rec.fields, map!.account), rec.line)
    if (map!.currency_code !== undefined) {
      const code = cell(rec.fields, map!.currency_code).toUpperCase()
      if (code) codes.set(code, (codes.get(code) ?? 0) + 1)
    }
    if (amounts.length < AMOUNT_SAMPLES)
      for (const i of [map!.amount, map!.debit, map!.credit]) if (i !== undefined && cell(rec.fields, i)) amounts.push(cell(rec.fields, i))
    if (map!.amount === undefined) for (const column of ['debit', 'credit'] as const) signs[column].add(cell(rec.fields, map![column]))
    indicators!.add(rec.fields)
    return false
  }

  /** Decides the columns over the records kept aside, then plans them; true: settled. */
  const release = (): boolean => {
    const records = pending!
    pending = undefined
    decideColumns(records)
    return records.some(plan)
  }

  /** The first records, until where the transactions start is decided (header-row.ts). */
  let head: CsvRecord[] | undefined = []
  /** Takes the header (or its absence) from the first records; the records after it are the file's rows. */
  const decideHeader = (records: CsvRecord[]): CsvRecord[] => {
    // A bank's layout (bank-layouts.ts) adds its reading options under the flags, before anything is decided.
    const known = o.skipLines === undefined && o.layouts !== false ? recogniseLayout(records) : undefined
    if (known) {
      given = { dateFormat: o.dateFormat !== undefined, decimalComma: o.decimalComma !== undefined, invertSign: o.invertSign !== undefined }
      o = withLayout(o, known.layout)
      layoutName = known.layout.name
      flagFormat = dateFormatOf(o.dateFormat)
      layoutNote = `read as the ${known.layout.name} layout (recognised by ${known.by}); flags given win over it`
    }
    const found: HeaderRow | undefined =
      known?.by === 'its header'
        ? { kind: 'header', index: known.index, known: true }
        : findHeaderRow(records, {
            noHeader: o.noHeader,
            skipLines: o.skipLines,
            byMap: (o.map?.length ?? 0) > 0,
            format: flagFormat,
          })
    if (!found)
      throw noHeaderRow(records.length > HEADER_WITHIN ? `the first ${HEADER_WITHIN} lines` : `the file's ${lines(records.length)}`)
    const at = records[found.index]
    if (found.kind === 'header') {
      header = found.fields ?? at.fields
      headerLine = at.line
    } else {
      // No header: the columns have no names, only numbers (columnName: "column 3").
      header = at.fields.map(() => '')
      headerLine = at.line - 1
      headerless = found
    }
    if (found.kind === 'header' && !found.known) unknownNames = true
    try {
      map = mapHeader(header, o.map ?? [], { headerless: found.kind === 'none' })
      where = (o.where ?? []).map(([col, value]) => [columnIndex(header!, col, found.kind === 'none'), value])
      const x = o.exclude
      const column = x ? header.findIndex((h) => h.trim() === x.column) : -1
      if (x && column >= 0) excluded = { column, values: x.values, why: x.why }
    } catch (e) {
      throw new ImportError((e as Error).message)
    }
    pending = []
    const first = found.kind === 'header' && found.from !== undefined ? records[found.from] : at
    preamble = records.filter((rec) => rec.line < first.line)
    for (const rec of records) if (rec.line < at.line || (found.kind === 'header' && rec === at)) count(rec)
    return records.slice(found.kind === 'header' ? found.index + 1 : found.index)
  }

  /** One record after the header is decided; true: the plan is settled, stop reading. */
  const take = (rec: CsvRecord): boolean => {
    if (pending) {
      pending.push(rec)
      return pending.length >= EVIDENCE_ROWS && release()
    }
    return plan(rec)
  }

  reading: for await (const records of chunks)
    for (const rec of records) {
      seen++
      if (head) {
        head.push(rec)
        if (head.length <= HEADER_WITHIN) continue
        const rest = decideHeader(head)
        head = undefined
        for (const r of rest) if (take(r)) break reading
        continue
      }
      if (take(rec)) break reading
    }
  if (head?.length) {
    const rest = decideHeader(head)
    head = undefined
    for (const r of rest) if (take(r)) break
  }
  if (pending) release()
  if (seen === 0) throw new ImportError('the file holds no data')
  if (!header || !map) throw noHeaderRow(`the file's ${lines(seen)}`)
  const byType = recordTypes?.decide()
  if (byType) {
    const t = byType.recordType
    for (const { line, code } of byType.lines) skipped.push({ line, reason: recordTypeReason(code, t) })
    skipped.sort((a, b) => a.line - b.line)
    dataRows -= byType.lines.length
    notes.push(
      `record type in column ${t.column + 1}${header[t.column].trim() ? ` ("${header[t.column].trim()}")` : ''}: ${t.movement} is a movement; ${t.others.join(', ')} ${t.others.length === 1 ? 'is' : 'are'} not (balances, turnovers): such rows are skipped`,
    )
  }
  if (!auto) notes.push('--where chooses the rows: no balance or turnover row is skipped by itself')
  const rowsRead = dataRows
  // The rest of the file is estimated at the rows per character of what was read.
  if (settledEarly && settle && chars > 0) dataRows = Math.max(dataRows, Math.round((dataRows * settle.bytes) / chars))
  let dateFormat: DateFormat
  if (flagFormat) {
    dateFormat = flagFormat
    if (!given.dateFormat) notes.push(`dates ${o.dateFormat} (the ${layoutName} layout's)`)
  } else {
    const d = dates.decide()
    if (!d.ok) throw new ImportError(d.message)
    dateFormat = d.format
    const misfits = d.misfits
      ? `; ${d.misfits} ${d.misfits === 1 ? 'date does' : 'dates do'} not fit it and ${d.misfits === 1 ? 'its row is' : 'their rows are'} rejected`
      : ''
    notes.push(
      settledEarly
        ? `dates ${d.format.name} (detected over the first ${rows(rowsRead)}, where no other format fits as many${misfits}; every row is read with it)`
        : `dates ${d.format.name} (detected over ${rows(dataRows)}${misfits})`,
    )
  }
  if (firstRagged) notes.push(raggedNote(ragged, rowsRead, settledEarly, firstRagged, header.length))
  const decimal: DecimalMark = o.decimalComma ? ',' : detectDecimalMark(amounts)
  notes.push(
    `decimal mark ${JSON.stringify(decimal)}${o.decimalComma ? (given.decimalComma ? ' (given)' : ` (the ${layoutName} layout's)`) : ' (detected)'}`,
  )
  const columnSigns: ColumnSigns | undefined =
    map.amount === undefined ? { debit: signs.debit.usual, credit: signs.credit.usual } : undefined
  if (columnSigns) notes.push(signsNote(columnSigns, header, map))
  if (map.fee !== undefined)
    notes.push(`fee ${JSON.stringify(columnName(header, map.fee))}: each row's amount is less its fee, what the balance moves by`)
  const sign = indicators!.decide({ invertSign: o.invertSign })
  if (sign.indicator !== undefined) map.indicator = sign.indicator
  const indicatorBlank = sign.blank
  notes.push(...sign.notes)
  if (o.invertSign && !given.invertSign)
    notes.push(`every amount's sign flipped (the ${layoutName} layout's: it writes money out as positive)`)
  fallbacks = fallbacks.filter((i) => i !== map!.indicator && i !== map!.currency_code)
  const currency = fileCurrency(header, map, preamble, codes)
  const fileAccounts = map.account === undefined ? undefined : accounts.result(columnName(header, map.account))
  if (o.accountNumber !== undefined && map.account === undefined)
    throw new ImportError(`--account-number: the file has no column of account numbers; name it with --map account=Column`)
  if (fileAccounts?.numbers.length === 1) notes.push(`account ${fileAccounts.numbers[0].number} (its column "${fileAccounts.column}")`)
  if (currency.stated) notes.push(`currency ${currency.stated.code} (${currency.stated.from})`)
  if (currency.column && currency.column.counts.length > 1)
    notes.push(
      `currency <- ${currency.column.name}: ${currency.column.counts.map((c) => `${c.code} on ${rows(c.rows)}`).join(', ')}; each row keeps its own`,
    )
  if (fallbacks.length)
    how.description = [how.description, `else ${fallbacks.map((i) => columnName(header!, i)).join(', ')}`].filter(Boolean).join('; ')
  // Where the rows start and which column each field was taken from, right after the encoding.
  notes.splice(
    1,
    0,
    ...(layoutNote ? [layoutNote] : []),
    ...headerNote(headerLine, headerless, unknownNames),
    columnsNote(header, map, how),
  )
  return {
    layout,
    headerLine,
    header,
    map,
    dateFormat,
    decimal,
    ...(columnSigns ? { signs: columnSigns } : {}),
    dataRows,
    rowsRead,
    ...(settledEarly ? { settledEarly } : {}),
    skipped,
    ...(byType ? { recordType: byType.recordType } : {}),
    where,
    invertSign: Boolean(o.invertSign) || invertedByBalance,
    ...(balance ? { balance } : {}),
    ...(indicatorBlank ? { indicatorBlank } : {}),
    ...(o.indicatorDebit?.length ? { debitValues: o.indicatorDebit.map(markOf) } : {}),
    filtered,
    ...(headerless ? { headerless: true as const } : {}),
    fallbacks,
    ...(excluded ? { exclude: excluded } : {}),
    currency,
    ...(fileAccounts ? { accounts: fileAccounts } : {}),
    ...(o.accountNumber !== undefined ? { accountChoice: o.accountNumber } : {}),
    notes,
  }
}

/** The currency the file states (a header, a preamble line) and a currency column's codes. */
function fileCurrency(header: string[], map: ColumnMap, preamble: CsvRecord[], codes: Map<string, number>): FileCurrency {
  const stated = headerCurrency(header, map) ?? preambleCurrency(preamble)
  const column =
    map.currency_code === undefined ? undefined : { name: columnName(header, map.currency_code), counts: currencyCounts(codes) }
  return { ...(stated ? { stated } : {}), ...(column?.counts.length ? { column } : {}) }
}

/** A --date-format (or a bank layout's) as a format; an ImportError when it is none. */
function dateFormatOf(text: string | undefined): DateFormat | undefined {
  try {
    return text ? formatFromFlag(text) : undefined
  } catch (e) {
    throw new ImportError((e as Error).message)
  }
}

/** The plan's word on a file without a header, or with one in words the mapping does not know. */
function headerNote(headerLine: number, headerless: { given: boolean } | undefined, unknownNames: boolean): string[] {
  if (headerless)
    return [
      `no header: line ${headerLine + 1} is a transaction (${headerless.given ? '--no-header' : 'it has a date and an amount, as the lines after it'}); columns are named by their number from 1`,
    ]
  return unknownNames ? [`header on line ${headerLine}: no name in it is one finctl knows, so the columns are taken by their values`] : []
}
