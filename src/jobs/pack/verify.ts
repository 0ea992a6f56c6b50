/**
 * `finctl verify --pack FILE` (docs/closing.md, "Checking a pack"): a pack checked with nothing but
 * the file, and the company's public key if given: no database, no profile, no network. The zip is
 * read safely (zip-read.ts); then the manifest's signature, every file against the manifest (none
 * missing, added or renamed, none changed), the close record against the manifest, the journal's
 * totals against the close's figures, each statement's balances against the journal, each statement
 * line against its transaction, each statement's original and each document against its SHA-256,
 * each audit entry against its hash.
 */
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor, parseAmount } from '../../kernel/money.js'
import { entryHash } from '../../store/audit-chain.js'
import {
  AUDIT_FILE,
  CLOSE_FILE,
  DOCUMENTS_INDEX,
  MANIFEST,
  type Manifest,
  PACK_FORMAT,
  RECONCILIATION_FILE,
  SIGNATURE,
  type SignatureFile,
  STATEMENTS_FILE,
} from '../../domain/closing/pack-layout.js'
import { PackRefused, readPackZip } from './zip-read.js'

export interface PackVerification {
  intact: boolean
  /** What does not hold, each in words. */
  problems: string[]
  /** What was not checked, and why. */
  notes: string[]
  month: string | null
  company: string | null
  close: { id: number; sequence: number; created_at: string } | null
  /** The company's id as the manifest says it (what a pinned key is looked up by). */
  company_id: string | null
  /**
   * The key the signature was checked with: `given` with --public-key, `known` the one pinned for
   * the company (--public-key or an earlier pack), `pack` the pack's own; `pinned`: not the pack's own.
   */
  key: { public_key: string; fingerprint: string; source: 'given' | 'known' | 'pack'; pinned: boolean } | null
  /** The key the pack is signed with, as signature.json says. */
  signed_with: { public_key: string; fingerprint: string } | null
  files: number
}

/** A key pinned for the company earlier (the caller's store of known keys; verify itself reads no file). */
export interface PinnedKey {
  public_key: string
  pinned_at: string
  /** Where it is kept, named in the refusal. */
  where: string
}

export interface PackKeys {
  /** --public-key: the key the company gave. */
  given?: string
  /** The key pinned for a company id, if any. */
  known?: (companyId: string) => PinnedKey | undefined
}

/** ssh's way of showing a key: SHA256 of its raw bytes, base64 without padding. */
export function keyFingerprint(publicKey: string): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64').replace(/=+$/, '')}`
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** A raw Ed25519 public key, base64url (as finctl company prints it), or null when it is not one. */
export function publicKeyOf(x: string) {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
    return key
  } catch {
    return null
  }
}

function readJson<T>(files: Map<string, Buffer>, name: string, problems: string[]): T | null {
  const b = files.get(name)
  if (!b) return null
  try {
    return JSON.parse(b.toString('utf8')) as T
  } catch {
    problems.push(`${name} is not JSON`)
    return null
  }
}

function minor(text: string, currency: string): bigint | null {
  let exp: number
  try {
    exp = currencyExponent(currency)
  } catch {
    return null
  }
  const r = parseAmount(text, exp)
  return r.ok ? BigInt(r.minor) : null
}

function show(m: bigint, currency: string): string {
  try {
    return `${formatMinor(m, currencyExponent(currency))} ${currency}`
  } catch {
    return `${m} ${currency}`
  }
}

type Row = Record<string, string>

function csvRows(files: Map<string, Buffer>, name: string, problems: string[]): Row[] | null {
  const b = files.get(name)
  if (!b) return null
  try {
    return parse(b, { columns: true, bom: true, skip_empty_lines: true }) as Row[]
  } catch (e) {
    problems.push(`${name} is not a readable CSV: ${(e as Error).message}`)
    return null
  }
}

export async function verifyPack(path: string, keys: PackKeys = {}): Promise<PackVerification> {
  const out: PackVerification = {
    intact: false,
    problems: [],
    notes: [],
    month: null,
    company: null,
    company_id: null,
    close: null,
    key: null,
    signed_with: null,
    files: 0,
  }
  const p = out.problems
  let files: Map<string, Buffer>
  try {
    files = await readPackZip(path)
  } catch (e) {
    if (e instanceof PackRefused) {
      for (const problem of e.problems) p.push(`the pack is refused: ${problem}`)
      return out
    }
    throw e
  }
  const manifestBytes = files.get(MANIFEST)
  const sig = readJson<SignatureFile>(files, SIGNATURE, p)
  if (!manifestBytes) p.push(`${MANIFEST} is missing: not a pack, or its manifest was removed`)
  if (!files.has(SIGNATURE)) p.push(`${SIGNATURE} is missing: the pack is not signed`)
  const manifest = readJson<Manifest>(files, MANIFEST, p)
  if (!manifestBytes || !manifest) return out
  if (manifest.format !== PACK_FORMAT) p.push(`${MANIFEST} is not a finctl close pack's manifest (format ${String(manifest.format)})`)
  out.month = manifest.month ?? null
  out.company = manifest.company?.name ?? null
  out.close = manifest.close ? { id: manifest.close.id, sequence: manifest.close.sequence, created_at: manifest.close.created_at } : null

  out.company_id = typeof manifest.company_id === 'string' ? manifest.company_id : null
  if (sig) checkSignature(manifestBytes, sig, keys, out)

  // Every file the manifest lists, and nothing else.
  const listed = new Map((manifest.files ?? []).map((f) => [f.path, f]))
  const present = [...files.keys()].filter((n) => n !== MANIFEST && n !== SIGNATURE)
  out.files = present.length
  const extra = present.filter((n) => !listed.has(n))
  const missing = [...listed.keys()].filter((n) => !files.has(n))
  for (const name of missing) {
    const f = listed.get(name)!
    const renamed = extra.find((n) => sha256(files.get(n)!) === f.sha256)
    if (renamed) {
      p.push(`${name} was renamed to ${renamed}`)
      extra.splice(extra.indexOf(renamed), 1)
    } else p.push(`${name} is missing`)
  }
  for (const name of extra) p.push(`${name} is not in the manifest: added to the pack`)
  for (const [name, f] of listed) {
    const b = files.get(name)
    if (b && (sha256(b) !== f.sha256 || b.length !== f.bytes)) p.push(`${name} was changed: its SHA-256 differs from the manifest's`)
  }

  const over = manifest.close?.forced_over
  if (manifest.close?.forced && over)
    for (const a of over.accounts ?? [])
      out.notes.push(
        `forced over: ${a.bank_account} (${a.bank_account_id}): ${(a.blockers ?? []).join(', ')}; closed by ${manifest.close.actor_name ?? manifest.close.actor}, reason: ${JSON.stringify(manifest.close.reason ?? '')}`,
      )
  checkOriginals(files, manifest, out)
  checkFigures(files, manifest, out)
  return { ...out, intact: p.length === 0 }
}

/**
 * The signature: with the key given, else the one pinned for the company, else the pack's own (which
 * proves the pack whole, not who made it). A pack signed with another key than the pinned one was
 * re-signed, or the company's key changed: refused either way, naming both and how to accept a new key.
 */
function checkSignature(manifestBytes: Buffer, sig: SignatureFile, keys: PackKeys, out: PackVerification): void {
  const p = out.problems
  const signedWith = String(sig.public_key)
  out.signed_with = { public_key: signedWith, fingerprint: keyFingerprint(signedWith) }
  const known = keys.given === undefined && out.company_id !== null ? keys.known?.(out.company_id) : undefined
  const x = keys.given ?? known?.public_key ?? signedWith
  const source = keys.given !== undefined ? 'given' : known ? 'known' : 'pack'
  out.key = { public_key: x, fingerprint: keyFingerprint(x), source, pinned: source !== 'pack' }
  if (keys.given !== undefined && signedWith !== keys.given)
    p.push(`the pack is signed with another key (${signedWith}) than the one given (${keys.given})`)
  if (known && signedWith !== known.public_key)
    p.push(
      `the pack is signed with another key (${keyFingerprint(signedWith)}) than the one pinned for company ${out.company_id} (${keyFingerprint(known.public_key)}, pinned ${known.pinned_at} in ${known.where}): it was re-signed, or the company's key changed; if the company says its key changed, get the new key from it (finctl company prints it) and give it: --public-key NEW checks the pack with it and replaces the pinned one`,
    )
  const key = publicKeyOf(x)
  if (!key) p.push(`the public key ${JSON.stringify(x)} is not an Ed25519 key`)
  else {
    let good = false
    try {
      good = verifySignature(null, manifestBytes, key, Buffer.from(String(sig.signature), 'base64'))
    } catch {
      good = false
    }
    if (!good) p.push(`the signature does not match ${MANIFEST}: the manifest was changed, or signed with another key`)
  }
}

/**
 * Each statement's original: in the pack where statements.json and the manifest say, hashing to the
 * SHA-256 its statement recorded; one not kept (uploaded before finctl kept files) is a note.
 */
function checkOriginals(files: Map<string, Buffer>, m: Manifest, out: PackVerification): void {
  const p = out.problems
  const listed = m.statement_files?.originals
  if (!listed) {
    out.notes.push(`a pack of version ${String(m.version)}: it holds no statement's original file, none was checked`)
    return
  }
  const inManifest = new Map(listed.map((o) => [o.statement_id, o]))
  for (const s of readJson<StatementLike[]>(files, STATEMENTS_FILE, p) ?? []) {
    const what = `statement ${s.id} (${JSON.stringify(s.file_name)})`
    const o = inManifest.get(s.id)
    inManifest.delete(s.id)
    const path = s.original_file ?? null
    if (!o || o.path !== path || o.sha256 !== s.file_sha256) {
      p.push(`${what}: its original in ${STATEMENTS_FILE} differs from the manifest's statement_files`)
      continue
    }
    if (path === null) {
      out.notes.push(`${what}: ${o.note ?? 'original not kept'}`)
      continue
    }
    const b = files.get(path)
    if (!b) p.push(`${what}: its original ${path} is missing`)
    else if (sha256(b) !== s.file_sha256)
      p.push(`${what}: its original ${path} is not the file uploaded (its SHA-256 differs from the statement's file_sha256)`)
  }
  for (const id of inManifest.keys()) p.push(`statement ${id}: the manifest lists its original, ${STATEMENTS_FILE} has no such statement`)
}

/** The content checks: close record, journal totals, statements, statement lines, documents, audit entries. */
function checkFigures(files: Map<string, Buffer>, m: Manifest, out: PackVerification): void {
  const p = out.problems
  const close = readJson<{ close?: Manifest['close'] }>(files, CLOSE_FILE, p)?.close
  if (close) {
    for (const k of ['id', 'sequence', 'rows_count', 'rows_sha256', 'created_at'] as const)
      if (close[k] !== m.close?.[k]) p.push(`${CLOSE_FILE}: ${k} is ${String(close[k])}, the manifest says ${String(m.close?.[k])}`)
    if (JSON.stringify(close.figures) !== JSON.stringify(m.close?.figures)) p.push(`${CLOSE_FILE}: its figures differ from the manifest's`)
  }
  const csvName = (m.files ?? []).map((f) => f.path).find((f) => /^journal\/books-.*\.csv$/.test(f))
  const journal = csvName ? csvRows(files, csvName, p) : null
  if (!journal) {
    out.notes.push('the journal (csv) is not in the pack: its totals were not checked')
    return
  }
  // The journal's totals per account and currency, non-void rows, as the close counts them.
  const sums = new Map<string, { n: number; total: bigint }>()
  const byId = new Map<string, Row>()
  for (const [i, r] of journal.entries()) {
    byId.set(r.id, r)
    if (r.status === 'void') continue
    const amount = minor(r.amount ?? '', r.currency ?? '')
    if (amount === null) {
      p.push(`${csvName} line ${i + 2}: "${r.amount}" is not an amount in ${r.currency}`)
      continue
    }
    const key = `${r.bank_account_id} ${r.currency}`
    const s = sums.get(key) ?? { n: 0, total: 0n }
    s.n++
    s.total += amount
    sums.set(key, s)
  }
  const figures = m.close?.figures
  if (!figures) out.notes.push('the close recorded no figures (a close before migration 0026): the totals were not compared')
  else {
    if (m.close.rows_count !== null && journal.length !== m.close.rows_count)
      p.push(`${csvName} has ${journal.length} transactions, the close recorded ${m.close.rows_count}`)
    const seen = new Set<string>()
    for (const f of figures) {
      const key = `${f.bank_account_id} ${f.currency_code}`
      seen.add(key)
      const s = sums.get(key) ?? { n: 0, total: 0n }
      const want = minor(f.total, f.currency_code)
      if (s.n !== f.transactions || want === null || s.total !== want)
        p.push(
          `the journal's total of account ${f.bank_account_id} in ${f.currency_code} is ${show(s.total, f.currency_code)} in ${s.n} transactions; the close recorded ${f.total} ${f.currency_code} in ${f.transactions}`,
        )
    }
    for (const [key, s] of sums)
      if (!seen.has(key)) p.push(`the journal has ${s.n} transactions of ${key} that the close's figures do not have`)
  }
  checkStatements(files, m, journal, out)
  checkLines(files, byId, p)
  checkDocuments(files, p)
  checkAudit(files, m, p)
}

interface StatementLike {
  id: string
  file_name: string
  file_sha256: string
  /** Its original's path in the pack (version 2), null when not kept. */
  original_file?: string | null
  bank_account_id: string
  currency_code: string
  period_start: string | null
  period_end: string | null
  opening_balance: string | null
  closing_balance: string | null
  book_balance_before: string | null
}

/** A statement of days within the month: opening balance plus the journal's rows of its days is its closing balance. */
function checkStatements(files: Map<string, Buffer>, m: Manifest, journal: Row[], out: PackVerification): void {
  const statements = readJson<StatementLike[]>(files, STATEMENTS_FILE, out.problems) ?? []
  for (const s of statements) {
    const what = `statement ${s.id}`
    // Without an opening balance of its own, the lines start from the book's balance the day before.
    const opening = s.opening_balance ?? s.book_balance_before
    const from = s.opening_balance !== null ? 'opening balance' : "the book's balance before its first day"
    if (!s.period_start || !s.period_end || opening === null || s.closing_balance === null) {
      out.notes.push(`${what}: no period or balances: its balances were not checked`)
      continue
    }
    if (!s.period_start.startsWith(m.month) || !s.period_end.startsWith(m.month)) {
      out.notes.push(`${what} covers ${s.period_start}..${s.period_end}, days outside ${m.month}: its balances were not checked`)
      continue
    }
    const rows = journal.filter(
      (r) => r.bank_account_id === s.bank_account_id && r.status !== 'void' && r.date >= s.period_start! && r.date <= s.period_end!,
    )
    if (rows.some((r) => r.currency !== s.currency_code)) {
      out.notes.push(`${what}: its account has rows in another currency than ${s.currency_code}: its balances were not checked`)
      continue
    }
    const open = minor(opening, s.currency_code)
    const close = minor(s.closing_balance, s.currency_code)
    const moved = rows.reduce((t, r) => t + (minor(r.amount, r.currency) ?? 0n), 0n)
    // A difference the close was forced over, recorded in its signed record, is that, not a problem; any other is.
    const forced = open !== null && close !== null ? forcedOver(m, s, close - (open + moved)) : null
    if (forced) out.notes.push(forced)
    else if (open === null || close === null || open + moved !== close)
      out.problems.push(
        `${what}: ${from} ${opening} plus the journal's ${rows.length} transactions of ${s.period_start}..${s.period_end} (${show(moved, s.currency_code)}) is not its closing balance ${s.closing_balance} ${s.currency_code}`,
      )
  }
}

/** The words for a statement's `difference` when the close recorded that it was forced over it, else null. */
function forcedOver(m: Manifest, s: StatementLike, difference: bigint): string | null {
  if (difference === 0n) return null
  const recorded = (m.close?.forced_over?.statements ?? []).find((f) => f?.statement_id === s.id)
  if (!recorded || minor(String(recorded.difference), s.currency_code) !== difference) return null
  const who = m.close.actor_name ?? m.close.actor
  return `forced over: statement ${s.id} (${JSON.stringify(s.file_name)}) of ${recorded.bank_account} differs from the books by ${show(difference, s.currency_code)} (closing balance ${recorded.closing_balance}, books ${recorded.book_balance} on ${recorded.period_end}), as the close recorded; closed by ${who}, reason: ${JSON.stringify(m.close.reason ?? '')}`
}

/** Each statement line's transaction is in the journal, with its date and amount. */
function checkLines(files: Map<string, Buffer>, byId: Map<string, Row>, p: string[]): void {
  for (const [i, r] of (csvRows(files, RECONCILIATION_FILE, p) ?? []).entries()) {
    const t = byId.get(r.transaction_id)
    const where = `${RECONCILIATION_FILE} line ${i + 2}`
    if (!t) p.push(`${where}: transaction ${r.transaction_id} is not in the journal`)
    else if (t.date !== r.date || minor(t.amount, t.currency) !== minor(r.amount, r.currency) || t.currency !== r.currency)
      p.push(
        `${where}: transaction ${r.transaction_id} is ${t.date} ${t.amount} ${t.currency} in the journal, ${r.date} ${r.amount} ${r.currency} here`,
      )
  }
}

/** Each document's bytes hash to the SHA-256 it is kept under. */
function checkDocuments(files: Map<string, Buffer>, p: string[]): void {
  for (const d of csvRows(files, DOCUMENTS_INDEX, p) ?? []) {
    const b = files.get(d.path)
    if (!b) p.push(`document ${d.document_id}: ${d.path} is not in the pack`)
    else if (sha256(b) !== d.sha256) p.push(`document ${d.document_id}: ${d.path} is not the document kept (its SHA-256 differs)`)
  }
}

/** Each audit entry's hash is that of its fields and the hash before it (docs/audit.md). */
function checkAudit(files: Map<string, Buffer>, m: Manifest, p: string[]): void {
  type Entry = {
    id: number
    transaction_id: string
    actor: string
    action: string
    changes: string
    created_at: string
    prev_hash: string | null
    hash: string | null
  }
  const entries = readJson<Entry[]>(files, AUDIT_FILE, p)
  if (entries !== null && !Array.isArray(entries)) p.push(`${AUDIT_FILE} is not a list of audit entries`)
  // Every entry of the chain has its hashes: one without is not skipped, it is named.
  for (const e of Array.isArray(entries) ? entries : []) {
    const what = `entry #${String(e?.id)} (${String(e?.action)} of ${String(e?.transaction_id)})`
    if (typeof e?.prev_hash !== 'string' || typeof e.hash !== 'string')
      p.push(`${AUDIT_FILE}: ${what} has no hash: every entry of the audit chain has one, so it was not written by finctl`)
    else if (entryHash(e.prev_hash, { ...e, company_id: m.company_id }) !== e.hash)
      p.push(`${AUDIT_FILE}: ${what} does not hash to its recorded hash`)
  }
}
