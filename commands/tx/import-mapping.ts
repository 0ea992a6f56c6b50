/**
 * What `tx import`'s flags become before the file is read: the mapping (flags over a saved one, or
 * the saved one whose header the file has), the values set on every row, and the refusals that
 * need no service (a statement file, an unknown encoding or date format).
 */
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import type { MappingStore, SavedMapping } from '../../src/cli/mappings.js'
import { note } from '../../src/cli/output.js'
import { wholeNumber } from '../../src/cli/flags.js'
import type { VerbHost } from '../../src/cli/runner.js'
import type { Role } from '../../src/import/mapping.js'
import { AppError } from '../../src/kernel/errors.js'
import { aFileOf } from '../../src/kernel/statement-formats.js'

type Mapping = typeof import('../../src/import/mapping.js')

/** The flags of `tx import` that make its mapping and the values of every row (a saved mapping holds the same). */
export interface MappingFlags {
  map?: string[]
  set?: string[]
  delimiter?: string
  encoding?: string
  dateFormat?: string
  decimalComma?: boolean
  skipLines?: string
  /** false: --no-header. */
  header?: boolean
  indicatorDebit?: string[]
  invertSign?: boolean
  where?: string[]
  /** false: --no-balance-check. */
  balanceCheck?: boolean
}

const SETTABLE = [
  'currency_code',
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'tags',
  'exchange_rate',
] as const

function pairs(mapping: Mapping, list: string[] | undefined, flag: string): Array<[string, string]> {
  return (list ?? []).map((item) => {
    const pair = mapping.splitPair(item)
    if (!pair) throw new AppError('usage', `${flag} takes name=value (got "${item}")`)
    return pair
  })
}

/** Flags win over the saved mapping, field by field. */
export function effectiveMapping(mapping: Mapping, o: MappingFlags, saved: SavedMapping | undefined): SavedMapping {
  const map = pairs(mapping, o.map, '--map').map(([field, column]): [Role, string] => {
    const role = mapping.roleNamed(field)
    if (!role) throw new AppError('usage', `--map: unknown field "${field}"; use one of ${mapping.ROLES.join(', ')}`)
    return [role, column]
  })
  const set = Object.fromEntries(pairs(mapping, o.set, '--set'))
  for (const k of Object.keys(set)) {
    if (!(SETTABLE as readonly string[]).includes(k))
      throw new AppError('usage', `--set: "${k}" cannot be set on imported rows; use one of ${SETTABLE.join(', ')}`)
  }
  return {
    map: map.length ? map : saved?.map,
    delimiter: o.delimiter ?? saved?.delimiter,
    encoding: o.encoding ?? saved?.encoding,
    dateFormat: o.dateFormat ?? saved?.dateFormat,
    decimalComma: o.decimalComma ?? saved?.decimalComma,
    skipLines: wholeNumber(o.skipLines, '--skip-lines', { min: 0, max: 10_000 }) ?? saved?.skipLines,
    noHeader: o.header === false ? true : saved?.noHeader,
    where: o.where?.length ? pairs(mapping, o.where, '--where') : saved?.where,
    invertSign: o.invertSign ?? saved?.invertSign,
    noBalanceCheck: o.balanceCheck === false ? true : saved?.noBalanceCheck,
    indicatorDebit: o.indicatorDebit?.length ? o.indicatorDebit : saved?.indicatorDebit,
    set: { ...saved?.set, ...set },
  }
}

/** An encoding or date format that names nothing is a usage error (2), found before the file is read. */
export async function checkReadingFlags(m: SavedMapping): Promise<void> {
  const { normalizeEncoding } = await import('../../src/import/decode.js')
  const { formatFromFlag } = await import('../../src/import/dates.js')
  try {
    if (m.encoding !== undefined) normalizeEncoding(m.encoding)
    if (m.dateFormat !== undefined) formatFromFlag(m.dateFormat)
  } catch (e) {
    throw new AppError('usage', (e as Error).message)
  }
}

export async function constantsOf(set: Record<string, string> | undefined): Promise<Partial<CreateTransactionRequest>> {
  if (!set || Object.keys(set).length === 0) return {}
  const c: Record<string, unknown> = { ...set }
  if (set.tags !== undefined)
    c.tags = set.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
  if (set.currency_code !== undefined) c.currency_code = set.currency_code.toUpperCase()
  if (set.exchange_rate !== undefined && !(await import('../../src/kernel/money.js')).parseRate(set.exchange_rate)) {
    throw new AppError('usage', `--set exchange_rate: "${set.exchange_rate}" is not a positive decimal number`)
  }
  const [{ CreateTransactionRequest }, { plainMessage }] = await Promise.all([
    import('../../src/domain/schemas.js'),
    import('../../src/domain/validation.js'),
  ])
  const parsed = CreateTransactionRequest.partial().safeParse(c)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue.path.join('.')
    const given = set[String(issue.path[0])]
    throw new AppError('usage', `--set ${field} ${plainMessage(issue)}${given === undefined ? '' : ` (got "${given}")`}`)
  }
  return parsed.data
}

/** tx import reads CSV; a bank statement file (by its content) is refused with the command that reads it (exit 2). */
export async function refuseStatementFile(file: string): Promise<void> {
  const { open } = await import('node:fs/promises')
  const handle = await open(file, 'r')
  let head: Uint8Array
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16_384), 0, 16_384, 0)
    head = buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
  const format = (await import('../../src/import/statements/index.js')).detectFormat(head, file)
  if (format && format !== 'csv') {
    throw new AppError(
      'usage',
      `${file} is ${aFileOf(format, 'statement')}, not a CSV file: tx import reads CSV files; import it with \`finctl statements upload ${file} --account ID\``,
    )
  }
}

/**
 * The saved mapping whose header the file has (said on stderr), none when none has; two or more
 * are a usage error naming them (docs/csv-mapping.md, "Banks recognised").
 */
export async function recognisedMapping(
  ctx: Pick<VerbHost, 'io' | 'printer'>,
  file: string,
  mappings: MappingStore,
): Promise<SavedMapping | undefined> {
  const { mappingsMatching } = await import('../../src/cli/mappings.js')
  const names = await mappingsMatching(file, mappings.list())
  if (names.length > 1) {
    throw new AppError(
      'usage',
      `the header of ${file} matches the saved mappings ${names.map((n) => `"${n}"`).join(' and ')}: choose one with --mapping NAME, or none with --no-mapping`,
    )
  }
  if (names.length === 0) return undefined
  note(ctx.io, ctx.printer, `using mapping "${names[0]}" (header matched)`)
  return mappings.get(names[0])
}
