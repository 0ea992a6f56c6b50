/** finctl verify [--close MONTH [--dir DIR] [--accounts-map FILE]]: the audit trail's hash chain, or a month's close (docs/audit.md, docs/closing.md). */
import { count } from '../src/kernel/words.js'
import type { Command } from 'commander'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { printList, printRecord, say, type Column } from '../src/cli/output.js'
import { printableLine } from '../src/cli/terminal-text.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import type { CloseRecord } from '../src/domain/closing/schemas.js'
import type { ExportCheck } from '../src/jobs/export/close-exports.js'
import { AppError } from '../src/kernel/errors.js'

export interface VerifyOptions {
  pack?: string
  publicKey?: string
  close?: string
  dir?: string
  accountsMap?: string
}

export function registerVerify(program: Command, run: Runner, runF: RunVerb<VerifyOptions> = runVerify): void {
  program
    .command('verify')
    .description(
      `check the audit trail's hash chain (or with --close a month's close): exit 0 when intact, ${EXIT.auditBroken} naming what changed`,
    )
    .option(
      '--pack <file>',
      "check an auditor's pack (finctl close pack) offline: no database, no login, no profile; the company's key is pinned on first use",
    )
    .option(
      '--public-key <key>',
      "with --pack: the company's public key (finctl company prints it), or a file holding it; replaces the key pinned for the company",
    )
    .option('--close <month>', "check the month's close, YYYY-MM: its rows, the chain's head and its exports as they were")
    .option('--dir <dir>', 'with --close: the folder the exports were written to; their files are checked too')
    .option('--accounts-map <file>', 'with --close: the accounts map the journals were written with, if one was')
    .addHelpText(
      'after',
      `\nExit codes: 0 intact; ${EXIT.auditBroken} something changed (named on stderr).\n\nExamples:\n  finctl verify\n  finctl verify --json\n  finctl verify --close 2026-10 --dir books/\n  finctl verify --pack pack-2026-10.zip --public-key $KEY\n`,
    )
    .action(run(runF))
}

export async function runVerify(ctx: VerbHost, o: VerifyOptions): Promise<number> {
  if (o.pack !== undefined) {
    if (o.close !== undefined || o.dir !== undefined || o.accountsMap !== undefined)
      throw new AppError('usage', '--pack is checked on its own: not with --close, --dir or --accounts-map')
    return verifyPack(ctx, o.pack, o.publicKey)
  }
  if (o.publicKey !== undefined) throw new AppError('usage', '--public-key goes with --pack FILE')
  if (o.close !== undefined) return verifyClose(ctx, o.close, o)
  if (o.dir !== undefined || o.accountsMap !== undefined) throw new AppError('usage', '--dir and --accounts-map go with --close MONTH')
  const client = await ctx.client()
  const r = await client.audit.verify()
  const code = r.intact ? EXIT.ok : EXIT.auditBroken
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, r)
    if (r.broken) say(ctx.io, `audit trail broken: ${r.broken.message}`)
    return code
  }
  if (r.broken) {
    ctx.io.stdout.write(`broken ${r.broken.kind} ${r.broken.transaction_id ?? r.broken.entry_id ?? ''}\n`)
    say(ctx.io, `audit trail broken: ${r.broken.message}`)
    return code
  }
  ctx.io.stdout.write(
    `intact: ${count(r.entries, 'entry', 'entries')}, head #${r.head.id ?? 'none'} sha256:${r.head.hash}, ${count(r.transactions, 'transaction')} as created${r.proposals ? `, ${count(r.proposals, 'proposal')} as recorded` : ''}
`,
  )
  return code
}

const checkColumns: Column<ExportCheck>[] = [
  { header: 'format', value: (r) => r.format },
  { header: 'file', value: (r) => r.file_name },
  { header: 'rows', value: (r) => r.rows, align: 'right' },
  { header: 'result', value: (r) => r.result },
  { header: 'why', value: (r) => r.why },
]

/** A folder as a shell takes it, to be pasted: quoted when it holds more than plain path characters. */
function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`
}

async function verifyClose(ctx: VerbHost, m: string, o: VerifyOptions): Promise<number> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(m)) throw new AppError('usage', `--close must be a month written YYYY-MM, not "${m}"`)
  const { checkAccountsMapGiven, checkExports, checkFolder, readAccountsMap } = await import('../src/jobs/export/close-exports.js')
  let accountsMap: Awaited<ReturnType<typeof readAccountsMap>> | undefined
  if (o.accountsMap !== undefined) {
    await requireInputFile(o.accountsMap)
    accountsMap = await readAccountsMap(o.accountsMap)
  }
  const client = await ctx.client()
  const v = await client.close.verify(m)
  checkAccountsMapGiven(v, accountsMap)
  const exports = await checkExports(client, v, { dir: o.dir, accountsMap })
  const folder = o.dir !== undefined ? await checkFolder(v, o.dir, exports) : { stale: [], unchecked: [] }
  // A file an earlier close wrote is out of date, not changed: said on its own line (below), with how to export it again.
  const stale = folder.stale.map((f) => {
    const again = `finctl close ${m} --export ${f.format} --output-dir ${shellWord(o.dir ?? '.')}${f.accounts_map ? ' --accounts-map FILE' : ''} --overwrite`
    const since = v.reopened
      ? `the month was closed again at ${v.record.created_at} and reopened at ${v.reopened.created_at}: close it again with ${again}`
      : `the month was closed again at ${v.record.created_at}: export it again with ${again}`
    return `${f.path} is the export of the close of ${f.closed_at}, reopened since; ${since}`
  })
  const problems: string[] = []
  if (!v.chain.intact || !v.chain.head_found) problems.push(`audit trail: ${v.chain.message}`)
  if (!v.lock.intact) problems.push(`lock date: ${v.lock.message}`)
  for (const e of exports.filter((x) => x.result === 'differs' && !(x.earlier && x.produced?.same !== false)))
    problems.push(`${e.format} export ${e.file_name}: ${e.why}`)
  if (v.contents.message) problems.push(v.contents.message)
  for (const a of v.audit_after_close)
    problems.push(`audit entry #${a.id} (${a.action} of transaction ${a.transaction_id}, ${a.created_at}) was written after the close`)
  const intact = problems.length === 0 && stale.length === 0
  const err = ctx.io.stderr
  if (ctx.printer.format === 'table') {
    const head = v.record.chain_head
    ctx.io.stdout.write(
      `close of ${m} at ${v.record.created_at} by ${printableLine(v.record.actor)}, lock date ${v.record.lock_date}; audit head then #${head?.id ?? 'none'}${
        head ? ` sha256:${head.hash}` : ''
      }\n`,
    )
    const c = v.contents
    if (c.recorded)
      ctx.io.stdout.write(
        `rows of ${m}: ${c.rows_then} at the close (sha256:${c.sha256_then}), ${c.rows_now} now${c.sha256_now === c.sha256_then ? ', the same' : ''}\n`,
      )
    if (exports.length) await printList(ctx.io, ctx.printer, exports, checkColumns)
  } else
    await printRecord(ctx.io, ctx.printer, {
      ...v,
      exports,
      intact,
      problems,
      stale_files: folder.stale.map((f, i) => ({ ...f, message: stale[i] })),
      unchecked_files: folder.unchecked,
    })
  if (!v.record.chain_head) err.write(`note: this close was made before closes recorded the audit head; only the chain is checked\n`)
  if (!v.contents.recorded) err.write(`note: this close was made before closes recorded the month's rows; they are not compared\n`)
  // Files given but none recorded (a re-close without --export) and none an earlier close's: none was compared.
  const unchecked = o.dir !== undefined && !exports.length && !stale.length
  if (unchecked)
    say(
      ctx.io,
      `note: the files in ${o.dir} were not checked: the latest close of ${m} (${v.record.created_at}) recorded no export, and those of an earlier close of it no longer count (finctl close history); close it again with --export FORMATS --output-dir DIR to record new ones`,
    )
  else if (!exports.length) err.write(`note: no export was recorded on this close (finctl close ${m} --export FORMATS records them)\n`)
  // The reason and the actor are what people typed: escaped (say).
  if (v.reopened) say(ctx.io, `note: ${m} was reopened at ${v.reopened.created_at} by ${v.reopened.actor}: ${v.reopened.reason ?? ''}`)
  else if (!v.still_closed && v.lock.intact) err.write(`note: ${m} is not closed now\n`)
  for (const f of folder.unchecked) say(ctx.io, `note: ${f} was not checked: no close of ${m} recorded a file of these bytes`)
  // A rename is named as one: a name, not the period's figures (its exports were produced again with the names of the close).
  if (v.renamed.company)
    say(
      ctx.io,
      `note: the company was renamed from ${JSON.stringify(v.renamed.company.at_close)} to ${JSON.stringify(v.renamed.company.now)} since the close: a rename, not a change of ${m}`,
    )
  for (const a of v.renamed.accounts)
    say(
      ctx.io,
      `note: account ${a.bank_account_id} was renamed from ${JSON.stringify(a.at_close)} to ${JSON.stringify(a.now)} since the close: a rename, not a change of ${m}'s figures`,
    )
  // A forced close is not a change: what it was forced over is in its record, said as such (the reason is a person's words: one line).
  for (const line of forcedLines(v.record)) err.write(`${printableLine(line)}\n`)
  for (const p of problems) say(ctx.io, `changed since the close: ${p}`)
  for (const line of stale) say(ctx.io, line)
  if (intact)
    err.write(
      `${m} is as it was closed${v.reopened ? ' (although reopened since)' : ''}${unchecked ? ': its rows and the audit trail; no file was checked' : ''}\n`,
    )
  return intact ? EXIT.ok : EXIT.auditBroken
}

/** What a forced close was forced over, a line each: the statements that differed from the books, the accounts not ready. */
function forcedLines(r: CloseRecord): string[] {
  const over = r.forced_over
  if (!r.forced || !over) return []
  const by = `closed by ${r.actor_name ?? r.actor} at ${r.created_at}, reason: ${JSON.stringify(r.reason ?? '')}`
  return [
    ...over.statements.map(
      (st) =>
        `forced over: statement ${st.statement_id} of ${st.bank_account} differs from the books by ${st.difference} ${st.currency_code} (closing balance ${st.closing_balance}, books ${st.book_balance} on ${st.period_end}); ${by}`,
    ),
    ...over.accounts.map((a) => `forced over: ${a.bank_account} (${a.bank_account_id}): ${a.blockers.join(', ')}`),
    ...(over.documents_missing ? [`forced over: ${count(over.documents_missing, 'transaction')} without a document`] : []),
  ]
}

/** The key given to --public-key: the key itself (base64url, as finctl company prints it), or a file holding it or its PEM. */
async function publicKeyFlag(value: string): Promise<string> {
  const { publicKeyOf } = await import('../src/jobs/pack/verify.js')
  if (publicKeyOf(value)) return value
  const { readFile } = await import('node:fs/promises')
  const text = await readFile(value, 'utf8').catch(() => null)
  if (text === null)
    throw new AppError(
      'usage',
      `--public-key: "${value}" is neither an Ed25519 public key (base64url, as finctl company prints it) nor a readable file`,
    )
  const t = text.trim()
  if (publicKeyOf(t)) return t
  try {
    const { createPublicKey } = await import('node:crypto')
    const x = createPublicKey(t).export({ format: 'jwk' }).x
    if (typeof x === 'string' && publicKeyOf(x)) return x
  } catch {
    // named below
  }
  throw new AppError('usage', `--public-key: ${value} holds no Ed25519 public key`)
}

/** verify --pack: nothing but the file (and the key); never a client, so no profile or database is needed. */
async function verifyPack(ctx: VerbHost, file: string, publicKey: string | undefined): Promise<number> {
  await requireInputFile(file)
  const given = publicKey === undefined ? undefined : await publicKeyFlag(publicKey)
  const { verifyPack: check } = await import('../src/jobs/pack/verify.js')
  const { openKnownKeys, pinPackKey } = await import('../src/cli/known-keys.js')
  const known = openKnownKeys(ctx.io.env)
  const r = await check(file, { given, known: known.store ? known.lookup : undefined })
  if (known.note) r.notes.push(known.note)
  pinPackKey(known, r, ctx.io.now())
  // Everything below quotes the pack, a file from anyone: each line printed as one line, its controls escaped.
  const line = (out: NodeJS.WritableStream, text: string) => out.write(`${printableLine(text)}\n`)
  const shown = (v: unknown) => (v === null || v === undefined ? '?' : String(v))
  if (ctx.printer.format !== 'table') await printRecord(ctx.io, ctx.printer, r)
  else if (r.month)
    line(
      ctx.io.stdout,
      `pack of ${shown(r.month)} (${shown(r.company)}), close #${shown(r.close?.id)} of ${shown(r.close?.created_at)}${
        Number(r.close?.sequence ?? 1) > 1 ? `: close ${shown(r.close?.sequence)} of the month, after a reopen` : ''
      }; ${count(r.files, 'file')}`,
    )
  for (const n of r.notes) line(ctx.io.stderr, `note: ${n}`)
  for (const p of r.problems) line(ctx.io.stderr, `pack: ${p}`)
  line(ctx.io.stderr, r.intact ? `${file} is intact` : `${file} does not hold: ${count(r.problems.length, 'problem')}`)
  return r.intact ? EXIT.ok : EXIT.auditBroken
}
