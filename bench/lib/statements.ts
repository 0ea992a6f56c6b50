/**
 * Section `statements`: a 50,000-line bank statement (10,000 with --quick), written at run time
 * (seeded, bench/lib/statement-files.ts) as CAMT.053 and as OFX, uploaded and processed end to end
 * by the built CLI on its embedded core: `finctl statements upload FILE --account ID --no-wait`
 * (POST /api-v1/statements, answered `pending`; the core parses the file on a worker thread and
 * stores it in one database transaction; the end of an embedded command waits for statements in
 * flight, so the process exit is the moment the statement is completed, without the 25 ms..1 s
 * polling steps of the waiting upload), then `finctl statements get` checks it: completed,
 * transaction_count = line_count = the file's lines, balance check ok (CAMT) or unavailable (OFX),
 * the closing balance of the file. Each run gets a database of its own (`finctl init`).
 *
 * Ceiling (bench/statements-ceiling.ts, a fresh process per run): the same parse (parseUpload, what
 * the worker runs) plus ONE prepared better-sqlite3 INSERT per line into the same `transactions`
 * table (a copy of the run's fresh database: same indexes) in one transaction. The ratio is finctl's
 * end-to-end rate over the floor of reading and storing the same lines; parse alone is shown too.
 * Peak RSS of the CLI from /usr/bin/time, and what the parse alone adds to a process's peak RSS.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './children.js'
import { makeFigure, type Figure } from './report.js'
import { summarize } from './stats.js'
import { generateStatementLines, writeCamt053, writeOfx, type StatementSet } from './statement-files.js'
import { prepareFinctl, type FinctlSetup } from './throughput.js'

export interface StatementsConfig {
  /** Lines per file. */
  lines: number
  /** Runs per format (end to end and ceiling, paired). */
  runs: number
}

type Format = 'camt053' | 'ofx'
const FORMATS: { format: Format; label: string; file: string }[] = [
  { format: 'camt053', label: 'CAMT.053', file: 'statement-2024.xml' },
  { format: 'ofx', label: 'OFX', file: 'statement-2024.ofx' },
]

interface StatementJson {
  id: string
  status: string
  line_count: number
  transaction_count: number
  duplicate_count: number
  matched_count: number
  balance_check: string | null
  closing_balance: number | null
  opening_balance: number | null
  period_start: string | null
  period_end: string | null
  warnings: string[]
  error: string | null
  created_at: string
  processed_at: string | null
}

interface EndToEnd {
  seconds: number
  rssMb?: number
  /** From the CLI's start to the statement's creation (node start-up, core, file read, upload). */
  uploadS: number
  /** From the statement's creation to the start of its storing (processed_at): parsing on the worker, lines back. */
  parseS: number
  /** From then to the process's exit: duplicate lookup, reconciliation, inserts and audit rows, COMMIT, close. */
  storeS: number
  statement: StatementJson
}

interface Ceiling {
  lines: number
  sumMinor: string
  stored: number
  warnings: number
  parseMs: number
  insertMs: number
  rssBeforeMb: number
  maxRssBeforeMb: number
  maxRssAfterParseMb: number
}

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

function cli(
  root: string,
  s: FinctlSetup,
  args: string[],
  timeoutMs: number,
): { ms: number; stdout: string; stderr: string; rssMb?: number; startedAt: number; endedAt: number } {
  const bin = join(root, 'bin', 'finctl.cjs')
  // The bench key has no practical rate limit.
  const env = { ...s.env, FINCTL_API_KEY: s.apiKey }
  const startedAt = Date.now()
  const t0 = performance.now()
  const r = timeBin
    ? spawnSync(timeBin, ['-f', 'FINCTL_MAXRSS_KB=%M', process.execPath, bin, ...args], {
        cwd: s.configDir,
        env,
        encoding: 'utf8',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      })
    : spawnSync(process.execPath, [bin, ...args], {
        cwd: s.configDir,
        env,
        encoding: 'utf8',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      })
  const ms = performance.now() - t0
  const endedAt = Date.now()
  if (r.error) throw new Error(`finctl ${args.join(' ')}: ${r.error.message}`)
  if (r.status !== 0)
    throw new Error(`finctl ${args.join(' ')} exited ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().slice(-2000)}`)
  const kb = /FINCTL_MAXRSS_KB=(\d+)/.exec(r.stderr ?? '')?.[1]
  return { ms, stdout: r.stdout, stderr: r.stderr, rssMb: kb ? Number(kb) / 1024 : undefined, startedAt, endedAt }
}

function endToEnd(root: string, s: FinctlSetup, file: string, set: StatementSet, format: Format): EndToEnd {
  const up = cli(root, s, ['statements', 'upload', file, '--account', s.accountId, '--no-wait', '--json'], 20 * 60_000)
  const pending = JSON.parse(up.stdout) as StatementJson
  const got = cli(root, s, ['statements', 'get', pending.id, '--json'], 60_000)
  const st = JSON.parse(got.stdout) as StatementJson
  const want = {
    status: 'completed',
    line_count: set.n,
    transaction_count: set.n,
    duplicate_count: 0,
    matched_count: 0,
    balance_check: format === 'camt053' ? 'ok' : 'unavailable',
    closing_balance: set.closingMinor / 100,
  }
  const bad = Object.entries(want).filter(([k, v]) => st[k as keyof StatementJson] !== v)
  if (bad.length) {
    throw new Error(
      `statement ${st.id} (${format}): ${bad.map(([k, v]) => `${k} ${JSON.stringify(st[k as keyof StatementJson])}, want ${JSON.stringify(v)}`).join('; ')}${st.error ? ` (error: ${st.error})` : ''}`,
    )
  }
  if (st.warnings.length) throw new Error(`statement ${st.id} (${format}) has warnings: ${st.warnings.slice(0, 3).join('; ')}`)
  const created = Date.parse(st.created_at)
  const processed = Date.parse(st.processed_at ?? '')
  return {
    seconds: up.ms / 1000,
    rssMb: up.rssMb,
    uploadS: (created - up.startedAt) / 1000,
    parseS: (processed - created) / 1000,
    storeS: (up.endedAt - processed) / 1000,
    statement: st,
  }
}

function ceiling(root: string, file: string, format: Format, database: string, accountId: string, set: StatementSet): Ceiling {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'bench', 'statements-ceiling.ts'),
      '--file',
      file,
      '--format',
      format,
      '--database',
      database,
      '--account',
      accountId,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 10 * 60_000,
      killSignal: 'SIGKILL',
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  if (r.status !== 0) throw new Error(`bench/statements-ceiling.ts exited ${r.status ?? r.signal}: ${(r.stderr ?? '').trim().slice(-2000)}`)
  const c = JSON.parse(r.stdout.trim().split('\n').pop()!) as Ceiling
  if (c.lines !== set.n || c.stored !== set.n || c.sumMinor !== String(set.sumMinor) || c.warnings !== 0) {
    throw new Error(
      `ceiling (${format}): ${c.lines} lines parsed, ${c.stored} stored, sum ${c.sumMinor}, ${c.warnings} warnings; want ${set.n} lines, sum ${set.sumMinor}`,
    )
  }
  return c
}

/** A fresh `finctl init` database (its own config dir), and a copy of it for the ceiling. */
function freshSetup(root: string, dir: string, tag: string, log: (l: string) => void): { setup: FinctlSetup; copy: string } {
  const setup = prepareFinctl(root, (l) => log(l.replace(/^serve: /, 'statements: ')))
  const copy = join(dir, `ceiling-${tag}.db`)
  copyFileSync(setup.database, copy)
  for (const ext of ['-wal', '-shm']) if (existsSync(setup.database + ext)) copyFileSync(setup.database + ext, copy + ext)
  return { setup, copy }
}

export async function runStatementsSection(
  root: string,
  cfg: StatementsConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('statements')
  const set = generateStatementLines(cfg.lines)
  const n = cfg.lines
  const label = n >= 1000 ? `${n / 1000}k` : String(n)
  const sizes: Record<Format, number> = { camt053: 0, ofx: 0 }
  for (const f of FORMATS) {
    const path = join(dir, f.file)
    sizes[f.format] = await (f.format === 'camt053' ? writeCamt053(path, set) : writeOfx(path, set))
    log(`statements: ${f.label}: ${path}, ${n.toLocaleString('en-US')} lines, ${(sizes[f.format] / 2 ** 20).toFixed(1)} MiB`)
  }
  log(
    `statements: opening ${(set.openingMinor / 100).toFixed(2)}, sum ${(set.sumMinor / 100).toFixed(2)}, closing ${(set.closingMinor / 100).toFixed(2)} USD; ${set.periodStart}..${set.periodEnd}`,
  )

  // The fixed cost of one embedded command (node start-up, bundle, core): `statements list`.
  const base = freshSetup(root, dir, 'base', log)
  const fixed = [0, 1, 2].map(() => cli(root, base.setup, ['statements', 'list', '--json'], 60_000))
  const fixedS = summarize(fixed.map((r) => r.ms / 1000)).median
  const fixedRss = summarize(fixed.map((r) => r.rssMb ?? Number.NaN)).median
  log(
    `statements: \`finctl statements list\` (fixed cost of an embedded command): ${fixedS.toFixed(2)} s, peak RSS ${fixedRss.toFixed(0)} MB`,
  )
  rmSync(base.setup.configDir, { recursive: true, force: true })

  const figures: Figure[] = []
  const out: string[] = [
    `statements: ${n.toLocaleString('en-US')} lines per file (seeded), one year, one account; CAMT.053 camt.053.001.02 ${(sizes.camt053 / 2 ** 20).toFixed(1)} MiB, OFX 1.02 SGML ${(sizes.ofx / 2 ** 20).toFixed(1)} MiB`,
    `statements: finctl = \`finctl statements upload FILE --account ID --no-wait\` wall time, embedded (the command's end waits for the statement), checked: completed, transaction_count = ${n}, balance check`,
    `statements: baseline = parseUpload (the worker's parse) + one prepared better-sqlite3 INSERT per line into the same transactions table (same indexes), one transaction, in a fresh process:`,
    `statements:   the floor of reading and storing the same lines; finctl also runs the CLI (${fixedS.toFixed(2)} s for \`statements list\`), uploads base64 JSON, parses on a worker thread, looks up duplicates,`,
    `statements:   reconciliation candidates and writes an audit row per line. Parse alone is the other bound (no storing at all).`,
  ]
  const head = [
    'statements',
    'finctl lines/s (wall)',
    'parse alone lines/s',
    'parse+INSERT lines/s',
    'finctl / parse+INSERT',
    'finctl phases: upload + parse (worker) + store',
    'peak RSS CLI',
    'parse adds',
  ]
  const rows: string[][] = []
  const extra: Record<string, unknown> = {
    lines: n,
    fileBytes: sizes,
    set: { opening: set.openingMinor, sum: set.sumMinor, closing: set.closingMinor },
    fixedCommand: { seconds: fixed.map((r) => r.ms / 1000), rssMb: fixed.map((r) => r.rssMb) },
  }

  for (const f of FORMATS) {
    const file = join(dir, f.file)
    const e2e: EndToEnd[] = []
    const ceil: Ceiling[] = []
    for (let i = 0; i < cfg.runs; i++) {
      const { setup, copy } = freshSetup(root, dir, `${f.format}-${i}`, log)
      // Alternate which goes first, so neither always runs on a warmer (or busier) machine.
      const steps = i % 2 === 0 ? (['e2e', 'ceiling'] as const) : (['ceiling', 'e2e'] as const)
      for (const step of steps) {
        if (step === 'e2e') {
          const r = endToEnd(root, setup, file, set, f.format)
          e2e.push(r)
          log(
            `statements: ${f.label} run ${i + 1}/${cfg.runs}: finctl ${r.seconds.toFixed(2)} s = ${Math.round(n / r.seconds)} lines/s ` +
              `(upload ${r.uploadS.toFixed(2)} s, parse ${r.parseS.toFixed(2)} s, store ${r.storeS.toFixed(2)} s), peak RSS ${r.rssMb?.toFixed(0) ?? '?'} MB`,
          )
        } else {
          const c = ceiling(root, file, f.format, copy, setup.accountId, set)
          ceil.push(c)
          log(
            `statements: ${f.label} run ${i + 1}/${cfg.runs}: parse ${(c.parseMs / 1000).toFixed(2)} s (+${(c.maxRssAfterParseMb - c.maxRssBeforeMb).toFixed(0)} MB peak RSS), ` +
              `INSERTs ${(c.insertMs / 1000).toFixed(2)} s: ${Math.round(n / ((c.parseMs + c.insertMs) / 1000))} lines/s`,
          )
        }
      }
      rmSync(setup.configDir, { recursive: true, force: true })
      rmSync(copy, { force: true })
      for (const ext of ['-wal', '-shm']) rmSync(copy + ext, { force: true })
    }
    const e2eRate = e2e.map((r) => n / r.seconds)
    const parseRate = ceil.map((c) => n / (c.parseMs / 1000))
    const floorRate = ceil.map((c) => n / ((c.parseMs + c.insertMs) / 1000))
    const notes = [`${f.label} ${(sizes[f.format] / 2 ** 20).toFixed(1)} MiB; transaction_count = ${n} checked in every run`]
    figures.push(
      makeFigure({
        id: `statements.${f.format}.e2e`,
        label: `statements upload ${f.label} ${label} lines, embedded CLI`,
        unit: 'lines/s',
        spread: 'min-max',
        value: e2eRate,
        baselineLabel: 'parse + prepared INSERTs',
        baseline: floorRate,
        notes,
      }),
      makeFigure({
        id: `statements.${f.format}.parse`,
        label: `${f.label} parse alone, ${label} lines (context)`,
        unit: 'lines/s',
        spread: 'min-max',
        value: parseRate,
        baselineLabel: 'parse + prepared INSERTs',
        baseline: floorRate,
      }),
    )
    const med = (xs: number[]) => summarize(xs).median
    const parseAdds = med(ceil.map((c) => c.maxRssAfterParseMb - c.maxRssBeforeMb))
    rows.push([
      `${f.label} ${label}`,
      `${Math.round(med(e2eRate))} (${med(e2e.map((r) => r.seconds)).toFixed(2)} s)`,
      `${Math.round(med(parseRate))}`,
      `${Math.round(med(floorRate))}`,
      `${(med(e2eRate) / med(floorRate)).toFixed(2)}x`,
      `${med(e2e.map((r) => r.uploadS)).toFixed(2)} s + ${med(e2e.map((r) => r.parseS)).toFixed(2)} s + ${med(e2e.map((r) => r.storeS)).toFixed(2)} s`,
      `${med(e2e.map((r) => r.rssMb ?? Number.NaN)).toFixed(0)} MB`,
      `+${parseAdds.toFixed(0)} MB`,
    ])
    extra[f.format] = {
      fileBytes: sizes[f.format],
      endToEnd: e2e.map(({ statement, ...r }) => ({
        ...r,
        statementId: statement.id,
        balanceCheck: statement.balance_check,
        transactionCount: statement.transaction_count,
      })),
      ceiling: ceil,
      linesPerSecond: { finctl: summarize(e2eRate), parse: summarize(parseRate), parseAndInsert: summarize(floorRate) },
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join(' | ')
  out.push('', line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line), '')
  out.push(
    `statements: peak RSS of \`finctl statements list\` (the same CLI doing nearly nothing): ${fixedRss.toFixed(0)} MB.`,
    "statements: phases from the statement's own timestamps against the CLI's start and exit: upload = start -> created_at (node start-up, core, file read, base64 JSON, sha256);",
    'statements:   parse = created_at -> processed_at (worker thread start, parse, lines back, account pick); store = processed_at -> exit (duplicates, candidates, INSERTs + audit rows, COMMIT, close).',
    'statements: "parse adds" = peak RSS of the ceiling process after parseUpload minus its peak before (file already read), i.e. what parsing the file costs in memory.',
  )
  return { figures, lines: out, extra }
}
