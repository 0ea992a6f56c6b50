/**
 * finctl benchmark harness: each figure beside a baseline measured in the same run, as a ratio,
 * with median and spread over several runs. Prints a table and writes bench/results/latest.json.
 *
 *   npm run bench                 full run (~90 minutes on 2 cores: pages ~45, categorize ~10)
 *   npm run bench -- --quick      short run (fewer repetitions, shorter durations, smaller data; ~4.5 minutes)
 *   npm run bench -- --smoke      every section once on tiny data, for CI: it runs, no figure is worth reading
 *   npm run bench -- --cpu-prof   also profile `finctl serve` and the bare server under POST load (top self time)
 *   npm run bench -- --only cli   only the CLI start-up figures (or --only serve, pg, list, list-scale, pages, import, revert, reports, statements, categorize, documents, planning)
 *
 * Figures:
 *   1. CLI start-up: `node bin/finctl.cjs --version`, `keys show` and `tx list` (embedded default database, demo data)
 *      vs `node -e 0`, wall time of spawnSync, interleaved.
 *   2. Server throughput: autocannon POST /api-v1/transactions on `finctl serve` vs a bare
 *      node:http + better-sqlite3 server doing one INSERT (bench/bare-server.mjs); GET /healthz
 *      vs a bare node:http hello, for context; and (bench/lib/serve-get.ts) a filtered GET
 *      /api-v1/transactions?category=Rent&limit=50 page on 100,000 seeded transactions vs the bare
 *      server running the same page query and count(*) on the same SQLite file; p50 of GET /api-keys/me
 *      and /api-keys/me/usage vs GET /api-v1/company, one process and two on the same file
 *      (bench/lib/usage-reads.ts; target < 1.5x).
 *   3. pg (bench/lib/pg.ts): POST /api-v1/transactions and a filtered GET page on `finctl serve`
 *      over PostgreSQL (FINCTL_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test,
 *      a fresh schema per run, dropped at the end), one process vs SQLite and two processes vs one;
 *      the usage reads as in 2, one process and two.
 *   4. list (bench/lib/list.ts): embedded filtered page latency on 1,000,000 transactions (100,000
 *      with --quick): first pages, page 1000 via next_cursor, unfiltered, vs the bare SQL page query,
 *      and the cost of the `total` count. 4a. list-scale (bench/lib/list-scale.ts): the first page and
 *      `tx list --all` at 100,000 and 1,000,000 rows beside the store's floor. 4b. pages
 *      (bench/lib/pages.ts): pages of transactions, events and the request log at 10,000, 1,000,000 and
 *      10,000,000 rows of each (10,000 and 100,000 with --quick), SQLite and PostgreSQL, beside the
 *      page query alone and beside the same page at the smallest size (target < 1.5x); ~45 minutes
 *      (FINCTL_BENCH_PAGES_STORES=sqlite or postgres: one store).
 *   5. import (bench/lib/import.ts): `finctl tx import` of a generated CSV (100,000 and 1,000,000 rows;
 *      20,000 and 100,000 with --quick) in three orders (by date, newest first, shuffled), each into a
 *      fresh database, then twice more into the first one (other rows: by date, shuffled), embedded; and
 *      through `finctl serve` (the CLI's time, and until the server's indexes are back), vs csv-parse
 *      alone and csv-parse + plain prepared inserts of the same rows, and the store's own inserts of the
 *      rows the embedded import created (the schema's floor); bytes a transaction on disk; peak RSS of
 *      the CLI and of finctl serve; and through `finctl serve` on PostgreSQL (FINCTL_BENCH_DATABASE_URL,
 *      a schema of its own) vs csv-parse + raw COPY of the same rows into a plain table in the same
 *      database, and PostgreSQL's own floor: the rows finctl stored COPY'd into tables shaped like
 *      transactions (primary key only; every index; unique indexes, the rest built after)
 *      (bench/lib/pg-import.ts).
 *   6. reports (bench/reports.ts): cash-flow and summary at 1,000,000 transactions (100,000 with --quick),
 *      p50/p95, vs the same range's totals as one plain SQL aggregate over the same index.
 *   7. statements (bench/lib/statements.ts): a generated 50,000-line CAMT.053 and OFX file (10,000 with
 *      --quick) uploaded and processed end to end by `finctl statements upload` (embedded), lines/s,
 *      vs the same parse + one prepared INSERT per line into the same table (bench/statements-ceiling.ts);
 *      parse alone for context; phases and peak RSS.
 *   8. categorize (bench/lib/categorize.ts): `finctl tx import` of a generated bank CSV (generateDataset,
 *      no category; 100,000 rows x 5 A/B/C repetitions, then 1,000,000 x 3; 50,000 x 3 with --quick)
 *      into B, a database with 5 rules and a model trained on 20,000 labelled rows, vs C, a database
 *      where categorization is skipped (no rules, no labels) importing the same rows WITH their
 *      categories in the file (the prediction overhead; target < 1.10x), and vs A, the same as C but
 *      with the file without categories (categorization vs none; context, no target).
 *  10. planning (bench/planning.ts): at 1,000,000 transactions (100,000 with --quick), `reports budget`
 *      (12 months by month) vs the summary of the same months, p50/p95; `forecast --days 365` vs the
 *      cash flow of those days by day; `recurring detect` over every row vs a plain SQL read of the
 *      same columns, with its peak RSS.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { cleanupNow, installCleanupHooks, makeTempDir } from './lib/children.js'
import { measureCliStartup } from './lib/cli-startup.js'
import { summarizeCpuProfile, type ProfileSummary } from './lib/cpuprofile.js'
import { makeFigure, renderTable, type Figure } from './lib/report.js'
import { summarize } from './lib/stats.js'
import {
  BENCH_KEY_LIMITS,
  checkOnce,
  healthRequest,
  load,
  pairedLoad,
  prepareFinctl,
  startBare,
  startFinctl,
  txRequest,
  type HttpRequestSpec,
  type LoadSample,
  type PairedRuns,
} from './lib/throughput.js'
import type { ServerProcess } from './lib/children.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const resultsDir = join(root, 'bench', 'results')

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    only: { type: 'string' },
    'revert-sizes': { type: 'string' },
    'revert-rounds': { type: 'string' },
    'revert-against': { type: 'string' },
    'revert-no-again': { type: 'boolean', default: false },
    'cli-against': { type: 'string' },
    'review-sizes': { type: 'string' },
    'review-rounds': { type: 'string' },
    'review-against': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
})
if (flags.help) {
  process.stdout.write(
    'usage: tsx bench/run.ts [--quick|--smoke] [--cpu-prof] [--check] [--only cli|serve|pg|list|list-scale|pages|import|revert|reports|statements|categorize|documents|planning]\n' +
      '  --check: exit 1 when a guarded figure (start-up) is past its target: a regression\n' +
      "  --revert-sizes 100000,1000000, --revert-rounds N: the revert section's sizes and rounds\n" +
      '  --smoke: every section once on tiny data (CI: each section must run without an error)\n' +
      "  --revert-against DIR: also run another built checkout's revert, round by round in alternating order\n" +
      '  --review-sizes 100000,1000000 [--review-rounds N] [--review-against DIR]: section import runs only the\n' +
      "    review + apply figure at these sizes; DIR: another built checkout's rounds beside this one's, alternating\n" +
      "  --cli-against DIR: time another built checkout's start-up in the same rotation; with --check, each command\n" +
      '    more than 10% slower than that build fails the run (instead of the ratios to node -e 0)\n',
  )
  process.exit(0)
}
const SECTIONS = [
  'cli',
  'serve',
  'pg',
  'list',
  'list-scale',
  'pages',
  'import',
  'revert',
  'reports',
  'statements',
  'categorize',
  'documents',
  'planning',
] as const
type SectionName = (typeof SECTIONS)[number]
if (flags.only !== undefined && !(SECTIONS as readonly string[]).includes(flags.only)) {
  process.stderr.write(`bench: --only must be one of ${SECTIONS.join(', ')}\n`)
  process.exit(2)
}
const mode = flags.smoke ? 'smoke' : flags.quick ? 'quick' : 'full'
const quick = mode !== 'full'
// The smoke run proves each section still runs; its figures are too small to read.
const smokeConfig = {
  cli: { runs: 2, warmups: 0, budgetMs: 30_000 },
  tx: { rounds: 1, durationS: 1, warmupS: 1 },
  usageReadRounds: 20,
  health: { rounds: 1, durationS: 1, warmupS: 1 },
  get: { rounds: 1, durationS: 1, warmupS: 1, seedRows: 5_000 },
  connections: 4,
  pauseMs: 100,
  cpuProfS: 1,
  pg: { rounds: 1, durationS: 1, warmupS: 1, connections: 4, pauseMs: 100, seedRows: 2_000, batchSize: 1000, usageReadRounds: 20 },
  list: { rows: 10_000, batch: 5000, reps: 3, warmups: 1, deepPage: 100, limit: 50 },
  listScale: { sizes: [2_000, 10_000] as [number, number], reps: 3, cliRuns: [1, 1] as [number, number], boundedHeapMb: 64 },
  pages: { sizes: [2_000, 5_000], reps: 3, stores: ['sqlite', 'postgres'] as ('sqlite' | 'postgres')[] },
  import: {
    sizes: [2_000, 10_000],
    ceilingRuns: 1,
    remote: true,
    postgres: true,
    intoExisting: true,
    withBalance: true,
    orders: ['ascending', 'descending', 'shuffled'] as const,
  },
  revert: { sizes: [2_000], rounds: 1 },
  reports: { rows: 10_000, runs: 2 },
  planning: { rows: 10_000, runs: 2, detectRuns: 1 },
  statements: { lines: 1_000, runs: 1 },
  categorize: { sizes: [5_000], repeats: [1], labelled: 2_000 },
  documents: { bombMb: 2, rounds: 1 },
  watchdogMs: 10 * 60_000,
}
const config = flags.smoke
  ? smokeConfig
  : quick
    ? {
        cli: { runs: 5, warmups: 1, budgetMs: 60_000 },
        tx: { rounds: 3, durationS: 3, warmupS: 2 },
        usageReadRounds: 150,
        health: { rounds: 3, durationS: 3, warmupS: 1 },
        get: { rounds: 3, durationS: 3, warmupS: 1, seedRows: 100_000 },
        connections: 10,
        pauseMs: 300,
        cpuProfS: 4,
        pg: { rounds: 1, durationS: 3, warmupS: 1, connections: 10, pauseMs: 300, seedRows: 20_000, batchSize: 5000, usageReadRounds: 150 },
        list: { rows: 100_000, batch: 5000, reps: 20, warmups: 3, deepPage: 1000, limit: 50 },
        listScale: { sizes: [10_000, 100_000] as [number, number], reps: 20, cliRuns: [3, 5] as [number, number], boundedHeapMb: 64 },
        pages: { sizes: [10_000, 100_000], reps: 20, stores: ['sqlite', 'postgres'] as ('sqlite' | 'postgres')[] },
        import: {
          sizes: [20_000, 100_000],
          ceilingRuns: 2,
          remote: true,
          postgres: true,
          intoExisting: true,
          withBalance: true,
          orders: ['ascending', 'descending', 'shuffled'] as const,
        },
        revert: { sizes: [20_000], rounds: 2 },
        reports: { rows: 100_000, runs: 10 },
        planning: { rows: 100_000, runs: 10, detectRuns: 2 },
        statements: { lines: 10_000, runs: 2 },
        categorize: { sizes: [50_000], repeats: [3], labelled: 20_000 },
        documents: { bombMb: 30, rounds: 3 },
        watchdogMs: 15 * 60_000,
      }
    : {
        cli: { runs: 20, warmups: 2, budgetMs: 180_000 },
        tx: { rounds: 5, durationS: 10, warmupS: 3 },
        usageReadRounds: 500,
        health: { rounds: 3, durationS: 10, warmupS: 2 },
        get: { rounds: 5, durationS: 10, warmupS: 3, seedRows: 100_000 },
        connections: 10,
        pauseMs: 500,
        cpuProfS: 8,
        pg: {
          rounds: 2,
          durationS: 10,
          warmupS: 2,
          connections: 10,
          pauseMs: 500,
          seedRows: 20_000,
          batchSize: 5000,
          usageReadRounds: 500,
        },
        list: { rows: 1_000_000, batch: 5000, reps: 50, warmups: 5, deepPage: 1000, limit: 50 },
        listScale: { sizes: [100_000, 1_000_000] as [number, number], reps: 50, cliRuns: [5, 3] as [number, number], boundedHeapMb: 64 },
        pages: { sizes: [10_000, 1_000_000, 10_000_000], reps: 30, stores: ['sqlite', 'postgres'] as ('sqlite' | 'postgres')[] },
        import: {
          sizes: [100_000, 1_000_000],
          ceilingRuns: 3,
          rounds: 3,
          remote: true,
          postgres: true,
          intoExisting: true,
          withBalance: true,
          orders: ['ascending', 'descending', 'shuffled'] as const,
        },
        revert: { sizes: [100_000], rounds: 3 },
        reports: { rows: 1_000_000, runs: 20 },
        planning: { rows: 1_000_000, runs: 20, detectRuns: 3 },
        statements: { lines: 50_000, runs: 3 },
        categorize: { sizes: [100_000, 1_000_000], repeats: [5, 3], labelled: 20_000 },
        documents: { bombMb: 190, rounds: 5 },
        watchdogMs: 60 * 60_000,
      }

const log = (line: string) => process.stderr.write(`${line}\n`)
const figures: Figure[] = []
const errors: { section: string; message: string }[] = []
const extra: Record<string, unknown> = {}
/** Lines a section wants printed after the table (its own detail). */
const sectionLines: string[] = []
const startedAt = new Date()
const loadavgAtStart = loadavg()

installCleanupHooks()
// Bound the whole run in time, whatever hangs.
const watchdog = setTimeout(() => {
  log(`bench: watchdog: still running after ${config.watchdogMs / 1000} s; killing child processes`)
  cleanupNow()
  process.exit(1)
}, config.watchdogMs)
watchdog.unref()

/** The commit benchmarked and the files that differ from it (what was built may include them). */
function gitState(): { commit?: string; changed: string[] } {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 5000 })
  if (r.status !== 0) return { changed: [] }
  const st = spawnSync('git', ['status', '--porcelain', '--', 'src', 'commands', 'bin', 'scripts', 'package.json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 5000,
  })
  const changed = (st.stdout ?? '').split('\n').filter(Boolean)
  return { commit: `${r.stdout.trim()}${changed.length ? '+dirty' : ''}`, changed }
}
const git = gitState()

async function cliSection(): Promise<void> {
  log(`\n== 1. CLI start-up (${config.cli.runs} runs each, interleaved, after ${config.cli.warmups} warm-up) ==`)
  const against = flags['cli-against'] ? resolve(flags['cli-against']) : undefined
  const r = measureCliStartup({ root, ...config.cli, log, ...(against ? { against } : {}) })
  const base = r.samples.node
  const notes = r.truncated ? ['time budget ran out before all runs'] : []
  // The ratios to `node -e 0` guard start-up: what it measured on 26 November 2026 and 10% more. A quicker
  // `node -e 0` raises them with no change of ours, so beside a reference build that build is the guard
  // instead: 10% more than its time in the same rotation (docs/performance.md, "Start-up guards").
  const commands = [
    { id: 'version', label: 'CLI `finctl --version` wall time', cpuLabel: 'CLI `finctl --version` processor time', ratio: 1.28 },
    {
      id: 'keys-show',
      label: 'CLI `finctl keys show` wall time (embedded)',
      cpuLabel: 'CLI `finctl keys show` processor time (embedded)',
      ratio: 4.25,
    },
    {
      id: 'tx-list',
      label: 'CLI `finctl tx list` wall time (embedded, demo data)',
      cpuLabel: 'CLI `finctl tx list` processor time (embedded, demo data)',
      ratio: 5.0,
    },
    {
      id: 'complete',
      label: 'CLI completion request on Tab (`__complete -- tx l`)',
      cpuLabel: 'CLI completion request on Tab (`__complete -- tx l`), processor time',
      ratio: 1.44,
    },
  ]
  for (const c of commands) {
    figures.push(
      makeFigure({
        id: `cli.${c.id}`,
        label: c.label,
        unit: 'ms',
        spread: 'p10-p90',
        value: r.samples[c.id],
        baselineLabel: 'node -e 0',
        baseline: base,
        target: { kind: 'max', ratio: c.ratio, guard: !against },
        notes,
      }),
    )
    if (!against) continue
    const beside = (id: string, label: string, samples: Record<string, number[]>, guard: boolean) =>
      makeFigure({
        id: `cli.${c.id}.${id}`,
        label: `${label}, beside the reference build`,
        unit: 'ms',
        spread: 'p10-p90',
        value: samples[c.id],
        baselineLabel: `the same command of ${against}`,
        baseline: samples[`ref-${c.id}`],
        target: { kind: 'max', ratio: 1.1, guard },
        notes,
      })
    // Beside the reference, processor time is the guard where it was measured: a loaded machine moves
    // wall time by more than the 10% guarded, processor time far less.
    const cpu = r.cpu[c.id].length > 0
    figures.push(beside('vs-reference', c.label, r.samples, !cpu))
    if (cpu) figures.push(beside('cpu-vs-reference', c.cpuLabel, r.cpu, true))
  }
  for (const c of r.commands) {
    const s = summarize(r.samples[c.id])
    log(
      `cli: ${c.label.padEnd(18)} median ${s.median.toFixed(1)} ms, p10 ${s.p10.toFixed(1)}, p90 ${s.p90.toFixed(1)}, min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}`,
    )
  }
}

function loadFigures(id: string, what: string, runs: PairedRuns, baselineLabel: string, rpsTarget: boolean): Figure[] {
  const pick = (k: keyof LoadSample) => [runs.subject.map((s) => s[k]), runs.baseline.map((s) => s[k])] as const
  const bad = runs.subject.filter((s) => s.non2xx > 0 || s.errors > 0 || s.timeouts > 0)
  const notes = bad.length
    ? [
        `finctl answered non-2xx or failed in ${bad.length} run(s): non-2xx ${bad.reduce((a, s) => a + s.non2xx, 0)}, errors ${bad.reduce((a, s) => a + s.errors, 0)}, timeouts ${bad.reduce((a, s) => a + s.timeouts, 0)}`,
      ]
    : []
  const badBase = runs.baseline.filter((s) => s.non2xx > 0 || s.errors > 0 || s.timeouts > 0)
  if (badBase.length) notes.push(`baseline answered non-2xx or failed in ${badBase.length} run(s)`)
  const [rps, rpsB] = pick('rps')
  const [p50, p50B] = pick('latencyP50')
  const [p99, p99B] = pick('latencyP99')
  const [mean, meanB] = pick('latencyMean')
  return [
    makeFigure({
      id: `${id}.rps`,
      label: `${what} req/s`,
      unit: 'req/s',
      spread: 'min-max',
      value: rps,
      baselineLabel,
      baseline: rpsB,
      target: rpsTarget ? { kind: 'min', ratio: 0.5 } : undefined,
      notes,
    }),
    makeFigure({ id: `${id}.p50`, label: `${what} latency p50`, unit: 'ms', spread: 'min-max', value: p50, baselineLabel, baseline: p50B }),
    makeFigure({ id: `${id}.p99`, label: `${what} latency p99`, unit: 'ms', spread: 'min-max', value: p99, baselineLabel, baseline: p99B }),
    makeFigure({
      id: `${id}.mean`,
      label: `${what} latency mean`,
      unit: 'ms',
      spread: 'min-max',
      value: mean,
      baselineLabel,
      baseline: meanB,
    }),
  ]
}

async function serveSection(): Promise<void> {
  log(
    `\n== 2. Server throughput (autocannon, ${config.connections} connections; POST ${config.tx.rounds} x ${config.tx.durationS} s, ` +
      `GET /healthz ${config.health.rounds} x ${config.health.durationS} s, filtered GET ${config.get.rounds} x ${config.get.durationS} s per server) ==`,
  )
  const setup = prepareFinctl(root, log)
  const bareSetup = prepareFinctl(root, log)
  const finctl = await startFinctl(root, setup)
  const bare = await startBare(root, bareSetup)
  log(`serve: finctl at ${finctl.url} (pid ${finctl.child.pid}), bare at ${bare.url} (pid ${bare.child.pid})`)
  try {
    const tx = txRequest(setup.apiKey, setup.accountId)
    const created = JSON.parse(await checkOnce(finctl, tx, 201)) as { data?: { amount?: unknown } }
    if (created.data?.amount !== -12.34) throw new Error(`finctl created a transaction with amount ${String(created.data?.amount)}`)
    await checkOnce(bare, tx, 201)
    await checkOnce(finctl, healthRequest, 200)
    await checkOnce(bare, healthRequest, 200)

    const common = { connections: config.connections, pauseMs: config.pauseMs, log }
    const txRuns = await pairedLoad(finctl, tx, bare, tx, { ...config.tx, ...common, label: 'POST /api-v1/transactions' })
    figures.push(...loadFigures('serve.tx', 'POST /api-v1/transactions', txRuns, 'bare node:http+sqlite', true))
    const healthRuns = await pairedLoad(finctl, healthRequest, bare, healthRequest, { ...config.health, ...common, label: 'GET /healthz' })
    figures.push(...loadFigures('serve.healthz', 'GET /healthz (context)', healthRuns, 'bare node:http hello', false))
    const { usageReadsOnSqlite } = await import('./lib/usage-reads.js')
    const reads = await usageReadsOnSqlite(root, finctl, setup, config.usageReadRounds)
    figures.push(...reads.figures)
    extra.usageReads = reads.p50

    const cpu = (runs: LoadSample[]) => summarize(runs.map((s) => s.serverCpuUsPerReq)).median
    const loader = (runs: LoadSample[]) => summarize(runs.map((s) => s.loaderCpuMs / (s.durationS * 1000))).median
    const logLines = summarize(txRuns.subject.map((s) => s.stderrLinesPerReq)).median
    extra.serve = {
      finctlUrl: finctl.url,
      bareUrl: bare.url,
      keyLimits: setup.limits,
      runs: { tx: txRuns, healthz: healthRuns },
      serverCpuUsPerRequest: {
        tx: { finctl: cpu(txRuns.subject), bare: cpu(txRuns.baseline) },
        healthz: { finctl: cpu(healthRuns.subject), bare: cpu(healthRuns.baseline) },
      },
      finctlStderrLinesPerRequest: logLines,
      loaderCpuShare: {
        tx: { finctl: loader(txRuns.subject), bare: loader(txRuns.baseline) },
        healthz: { finctl: loader(healthRuns.subject), bare: loader(healthRuns.baseline) },
      },
    }
  } finally {
    const t0 = performance.now()
    const stopped = await finctl.stop()
    const stopMs = performance.now() - t0
    await bare.stop()
    extra.finctlStop = { ...stopped, ms: Math.round(stopMs) }
    if (stopped.alreadyExited) log(`serve: finctl had already exited (${stopped.code ?? stopped.signal})`)
    else if (stopped.forced) log(`serve: finctl did not stop within 10 s of SIGTERM; killed`)
    else log(`serve: finctl stopped on SIGTERM in ${stopMs.toFixed(0)} ms (exit ${stopped.code ?? stopped.signal})`)
  }

  // The filtered GET page, on its own seeded database (after the POST servers stopped).
  const { runFilteredGet } = await import('./lib/serve-get.js')
  const { seedRows, ...getLoad } = config.get
  const get = await runFilteredGet(root, { ...getLoad, seedRows, connections: config.connections, pauseMs: config.pauseMs }, log)
  const rows = seedRows >= 1000 ? `${seedRows / 1000}k` : String(seedRows)
  figures.push(
    ...loadFigures(
      'serve.get',
      `GET ${get.request.path.replace('/api-v1/transactions', '')} (${rows} rows)`,
      get.runs,
      'bare node:http+sqlite',
      true,
    ),
  )
  sectionLines.push('', ...get.lines)
  const serveExtra = extra.serve as {
    runs: Record<string, PairedRuns>
    serverCpuUsPerRequest: Record<string, { finctl: number; bare: number }>
    loaderCpuShare: Record<string, { finctl: number; bare: number }>
  }
  const cpu = (runs: LoadSample[]) => summarize(runs.map((s) => s.serverCpuUsPerReq)).median
  const loader = (runs: LoadSample[]) => summarize(runs.map((s) => s.loaderCpuMs / (s.durationS * 1000))).median
  serveExtra.runs.get = get.runs
  serveExtra.serverCpuUsPerRequest.get = { finctl: cpu(get.runs.subject), bare: cpu(get.runs.baseline) }
  serveExtra.loaderCpuShare.get = { finctl: loader(get.runs.subject), bare: loader(get.runs.baseline) }
  Object.assign(serveExtra, { get: { path: get.request.path, seed: get.seed, plan: get.plan } })

  if (flags['cpu-prof']) await profileSection(setup)
}

interface ProfiledRun {
  server: string
  file: string
  /** autocannon figures of the profiled stretch (profiling slows the server down). */
  underLoad: LoadSample
  /** Requests answered in the summarized window (estimated from req/s). */
  requests: number
  /** Busy CPU time per request in the window, in µs. */
  busyUsPerRequest: number
  summary: ProfileSummary
}

/**
 * A server under `node --cpu-prof` with POST load: warm-up, then the measured stretch; only the
 * samples of the measured stretch are summarized (start-up, warm-up and shutdown left out).
 */
async function profileOne(
  name: 'finctl' | 'bare',
  start: (nodeArgs: string[]) => Promise<ServerProcess>,
  req: HttpRequestSpec,
): Promise<ProfiledRun> {
  const dir = makeTempDir(`cpuprof-${name}`)
  const spawnedAt = performance.now()
  const server = await start(['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'])
  let sample: LoadSample
  let fromMs: number
  let toMs: number
  try {
    await load(server, req, Math.max(1, Math.round(config.cpuProfS / 4)), config.connections)
    fromMs = performance.now() - spawnedAt + 100
    sample = await load(server, req, config.cpuProfS, config.connections)
    toMs = performance.now() - spawnedAt - 100
  } finally {
    const stopped = await server.stop(15_000)
    if (stopped.forced) log(`cpu-prof: ${server.name} had to be killed, so it wrote no profile`)
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`)
  mkdirSync(resultsDir, { recursive: true })
  const kept = join(resultsDir, `${name}-serve.cpuprofile`)
  copyFileSync(join(dir, file), kept)
  const summary = summarizeCpuProfile(kept, { top: 25, fromMs, toMs })
  const requests = (sample.rps * (summary.window.toMs - summary.window.fromMs)) / 1000
  const busyUsPerRequest = (summary.busyMs * 1000) / Math.max(1, requests)
  log(
    `cpu-prof: ${server.name}: ${sample.rps.toFixed(0)} req/s while profiled; window ${(summary.window.toMs - summary.window.fromMs).toFixed(0)} ms, ` +
      `busy ${summary.busyMs.toFixed(0)} ms, ${busyUsPerRequest.toFixed(0)} µs CPU per request; profile kept at ${kept}`,
  )
  return { server: server.name, file: kept, underLoad: sample, requests: Math.round(requests), busyUsPerRequest, summary }
}

async function profileSection(setup: ReturnType<typeof prepareFinctl>): Promise<void> {
  log(`\n== CPU profiles under POST load (${config.cpuProfS} s each, after a warm-up) ==`)
  const tx = txRequest(setup.apiKey, setup.accountId)
  const finctl = await profileOne('finctl', (args) => startFinctl(root, setup, args), tx)
  const bareSetup = prepareFinctl(root, log)
  const bare = await profileOne('bare', (args) => startBare(root, bareSetup, args), tx)
  extra.cpuProfile = { finctl, bare }
}

function printProfiles(p: { finctl: ProfiledRun; bare: ProfiledRun }): void {
  const perReq = (r: ProfiledRun, ms: number) => ((ms * 1000) / Math.max(1, r.requests)).toFixed(0).padStart(5)
  const out: string[] = []
  for (const r of [p.finctl, p.bare]) {
    const s = r.summary
    out.push(
      '',
      `CPU profile of ${r.server} under POST load: ${r.underLoad.rps.toFixed(0)} req/s while profiled, ${r.busyUsPerRequest.toFixed(0)} µs CPU per request ` +
        `(busy ${s.busyMs.toFixed(0)} ms in a ${(s.window.toMs - s.window.fromMs).toFixed(0)} ms window)`,
      '  self time by package / group:        %busy  µs/req',
    )
    for (const g of s.byGroup.slice(0, 12)) out.push(`    ${g.group.padEnd(34)} ${g.pct.toFixed(1).padStart(5)}%  ${perReq(r, g.ms)}`)
    const n = r === p.finctl ? 25 : 10
    out.push('  top self time:                       %busy  µs/req')
    for (const f of s.topFunctions.slice(0, n))
      out.push(`    ${f.pct.toFixed(1).padStart(5)}%  ${perReq(r, f.ms)}  ${f.name}  ${f.location}  [${f.group}]`)
    if (r === p.finctl) {
      out.push('  top inclusive time (finctl code and packages; synchronous stretches only):')
      for (const f of s.topInclusive.slice(0, 25))
        out.push(`    ${f.pct.toFixed(1).padStart(5)}%  ${perReq(r, f.ms)}  ${f.name}  ${f.location}  [${f.group}]`)
    }
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

/** A section's figures, its own lines after the table, and its raw data for the JSON file. */
function collect(name: string, r: { figures: Figure[]; lines: string[]; extra: unknown }): void {
  figures.push(...r.figures)
  sectionLines.push('', ...r.lines)
  extra[name] = r.extra
}

async function pgSection(): Promise<void> {
  const c = config.pg
  log(
    `\n== 3. PostgreSQL scale-out (autocannon, ${c.connections} connections per configuration; GET and POST ${c.rounds} x ${c.durationS} s ` +
      `per configuration: SQLite 1 process, PostgreSQL 1 process, PostgreSQL 2 processes) ==`,
  )
  const { runPgSection } = await import('./lib/pg.js')
  collect('pg', await runPgSection(root, c, log))
}

async function listSection(): Promise<void> {
  const c = config.list
  log(
    `\n== 4. Filtered page latency at scale, embedded (${c.rows.toLocaleString('en-US')} transactions, ${c.reps} repetitions per listing) ==`,
  )
  const { runListSection } = await import('./lib/list.js')
  collect('list', await runListSection(root, c, log))
}

async function listScaleSection(): Promise<void> {
  const c = config.listScale
  log(`\n== 4a. List pages and tx list --all at ${c.sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} rows (SQLite) ==`)
  const { runListScaleSection } = await import('./lib/list-scale.js')
  collect('list-scale', await runListScaleSection(root, c, log))
}

async function pagesSection(): Promise<void> {
  // FINCTL_BENCH_PAGES_STORES=sqlite (or postgres): one store only (loading each is most of the section).
  const only = process.env.FINCTL_BENCH_PAGES_STORES?.split(',')
  const c = { ...config.pages, stores: config.pages.stores.filter((s) => !only || only.includes(s)) }
  log(`\n== 4b. Pages of transactions at ${c.sizes.map((n) => n.toLocaleString('en-US')).join(', ')} rows (${c.stores.join(' and ')}) ==`)
  const { runPagesSection } = await import('./lib/pages.js')
  collect('pages', await runPagesSection(c, log))
}

async function importSection(): Promise<void> {
  const c = config.import
  log(
    `\n== 5. CSV import (${c.sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} rows; embedded and remote) vs csv-parse alone and csv-parse + plain inserts ==`,
  )
  const { runReviewFigure } = await import('./lib/import-review.js')
  if (flags['review-sizes']) {
    const against = flags['review-against'] ? resolve(flags['review-against']) : undefined
    const rounds = flags['review-rounds'] ? Number(flags['review-rounds']) : c.ceilingRuns
    for (const rows of flags['review-sizes'].split(',').map(Number))
      collect(`import-review-${rows}`, await runReviewFigure(root, { rows, rounds, against }, log))
    return
  }
  const { runImportSection } = await import('./lib/import.js')
  collect('import', await runImportSection(root, c, log))
  collect('import-review', await runReviewFigure(root, { rows: c.sizes[0], rounds: c.ceilingRuns }, log))
}

async function revertSection(): Promise<void> {
  const c = {
    ...config.revert,
    ...(flags['revert-sizes'] ? { sizes: flags['revert-sizes'].split(',').map(Number) } : {}),
    ...(flags['revert-rounds'] ? { rounds: Number(flags['revert-rounds']) } : {}),
    ...(flags['revert-against'] ? { against: resolve(flags['revert-against']) } : {}),
    noAgain: flags['revert-no-again'],
  }
  if (!c.sizes.every((n) => Number.isInteger(n) && n > 0) || !(c.rounds > 0))
    throw new Error('--revert-sizes and --revert-rounds take positive integers')
  log(
    `\n== 5b. imports revert (${c.sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} rows, embedded) vs the tx import of the same rows ==`,
  )
  const { runRevertSection } = await import('./lib/revert.js')
  collect('revert', await runRevertSection(root, c, log))
}

async function reportsSection(): Promise<void> {
  const c = config.reports
  log(`\n== 6. Reports at ${c.rows.toLocaleString('en-US')} transactions, embedded (p50/p95 over ${c.runs} runs) vs plain SQL totals ==`)
  const { runReportsSection } = await import('./lib/reports-section.js')
  collect('reports', runReportsSection(root, c, log))
  // The same on PostgreSQL when one answers (FINCTL_BENCH_DATABASE_URL, default the test database).
  const { checkPostgres, DEFAULT_PG_URL } = await import('./lib/pg.js')
  const url = process.env.FINCTL_BENCH_DATABASE_URL ?? DEFAULT_PG_URL
  const answered = await checkPostgres(url).then(
    () => true,
    (e: Error) => (log(`reports: not on PostgreSQL: ${e.message}`), false),
  )
  if (answered) collect('reports.pg', runReportsSection(root, c, log, url))
}

async function planningSection(): Promise<void> {
  const c = config.planning
  log(
    `\n== 10. Budgets, recurring detection and the forecast at ${c.rows.toLocaleString('en-US')} transactions, embedded: the budget report vs the summary it reads, the forecast vs the cash flow of its days, detection vs a plain read ==`,
  )
  const { runPlanningSection } = await import('./lib/planning-section.js')
  collect('planning', runPlanningSection(root, c, log))
}

async function statementsSection(): Promise<void> {
  const c = config.statements
  log(
    `\n== 7. Statement upload, embedded (${c.lines.toLocaleString('en-US')}-line CAMT.053 and OFX, ${c.runs} runs each) vs parse + plain prepared inserts ==`,
  )
  const { runStatementsSection } = await import('./lib/statements.js')
  collect('statements', await runStatementsSection(root, c, log))
}

async function categorizeSection(): Promise<void> {
  const c = config.categorize
  log(
    `\n== 8. Categorization on import, embedded (${c.sizes.map((n, i) => `${n.toLocaleString('en-US')} rows x ${c.repeats[i]} A/B/C repetition(s)`).join(', then ')}): ` +
      `5 rules + model on ${c.labelled.toLocaleString('en-US')} labelled rows vs the same rows arriving categorized, and vs categorization skipped ==`,
  )
  const { runCategorizeSection } = await import('./lib/categorize.js')
  collect('categorize', await runCategorizeSection(root, c, log))
}

async function documentsSection(): Promise<void> {
  const c = config.documents
  log(
    `\n== 9. PDF reads fair between companies, in process (${c.rounds} rounds): company A's receipt read while company B's ${c.bombMb} MB flate bomb is read, vs alone ==`,
  )
  const { runDocumentsSection } = await import('./lib/documents.js')
  collect('documents', await runDocumentsSection(c, log))
}

/** dist/ is shared: another build (npm test rebuilds it) may be replacing it right now; wait a little. */
async function waitForBuild(): Promise<void> {
  const cli = join(root, 'dist', 'cli.cjs')
  for (let i = 0; i < 120 && !existsSync(cli); i++) await new Promise((r) => setTimeout(r, 500))
  if (!existsSync(cli)) throw new Error('dist/cli.cjs is missing: run `npm run build` (npm run bench does)')
}

async function main(): Promise<number> {
  await waitForBuild()
  log(`finctl bench (${mode}) on node ${process.version}, ${cpus().length} CPU(s); temp files under ${tmpdir()}`)
  log(
    `commit ${git.commit ?? '?'}${git.changed.length ? ` with uncommitted changes in: ${git.changed.map((l) => l.slice(3)).join(', ')}` : ''}`,
  )
  const all: [SectionName, () => Promise<void>][] = [
    ['cli', cliSection],
    ['serve', serveSection],
    ['pg', pgSection],
    ['list', listSection],
    ['list-scale', listScaleSection],
    ['pages', pagesSection],
    ['import', importSection],
    ['revert', revertSection],
    ['reports', reportsSection],
    ['statements', statementsSection],
    ['categorize', categorizeSection],
    ['documents', documentsSection],
    ['planning', planningSection],
  ]
  const sections = all.filter(([name]) => flags.only === undefined || flags.only === name)
  for (const [name, fn] of sections) {
    const sectionStart = performance.now()
    try {
      await fn()
    } catch (err) {
      const message = (err as Error)?.stack ?? String(err)
      errors.push({ section: name, message })
      log(`bench: section ${name} failed: ${message}`)
    }
    log(`bench: section ${name} took ${((performance.now() - sectionStart) / 1000).toFixed(1)} s`)
  }

  const finishedAt = new Date()
  const report = {
    meta: {
      mode,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 100) / 10,
      node: process.version,
      platform: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memGiB: Math.round(totalmem() / 2 ** 30),
      loadavgAtStart,
      loadavgAtEnd: loadavg(),
      commit: git.commit,
      changedFiles: git.changed,
      config,
      notes: [
        'ratio = median(value) / median(baseline); the bracketed ratio spread is over paired iterations (CLI) or rounds (server).',
        'CLI spread is p10–p90 over the runs; server spread is min–max over the rounds.',
        `The bench API key has rate_limit_per_minute ${BENCH_KEY_LIMITS.perMinute} (the API maximum; 100000000 is refused) and rate_limit_per_day ${BENCH_KEY_LIMITS.perDay}.`,
        'autocannon runs in the harness process, on the same machine as the servers.',
        'pg: PostgreSQL runs on the same machine; 2-process figures sum two autocannon instances run at once (half the connections each); their p50 is the request-weighted mean of the two p50s and p99 the larger p99.',
        'list: embedded (in-process) client timings vs a prepared better-sqlite3 statement of the same page query on the same file; spread p10-p90 over repetitions.',
        'serve.get: finctl serve and the bare server read the same seeded SQLite file; the bare server runs the same page query and count(*) and answers the same JSON (checked byte for byte), without auth, rate limit or validation.',
        'categorize: seconds = wall time of `finctl tx import --json --no-progress` (embedded) of the same generated rows into a fresh account; B has 5 rules and 20,000 labelled rows (the model), A and C the same 20,000 rows without category and no rules (categorization skipped); A and B import the file without categories, C the same rows with a Category column (--map category=Category). categorize.predict = median B / median C (prediction overhead, target < 1.10); categorize.import = median B / median A (categorization vs none, context). Each repetition on three fresh databases, the order of A, B, C rotated (ABC, BCA, CAB).',
        'statements: lines/s = lines / wall time of `finctl statements upload --no-wait` (embedded; the command ends when the statement is completed), vs parseUpload + one prepared INSERT per line into the same table in a fresh process; spread min-max over runs, each on a fresh database.',
      ],
    },
    figures,
    ...extra,
    errors,
  }
  mkdirSync(resultsDir, { recursive: true })
  const jsonPath = join(resultsDir, 'latest.json')
  const json = `${JSON.stringify(report, null, 2)}\n`
  writeFileSync(jsonPath, json)
  // A dated copy too, so that a later run does not erase this one.
  writeFileSync(join(resultsDir, `${mode}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`), json)

  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ')
  const out: string[] = [
    '',
    `finctl bench results (${mode}; node ${process.version}; ${cpus().length} CPU(s) ${cpus()[0]?.model ?? ''}; ` +
      `commit ${git.commit ?? '?'}; load average ${la(loadavgAtStart)} at start, ${la(loadavg())} at end)`,
    '',
  ]
  if (figures.length) out.push(renderTable(figures))
  out.push(
    '',
    'spread: CLI and list rows p10–p90 over runs or repetitions; server and pg rows min–max over rounds. ratio = median / baseline median; [..] = spread of paired ratios.',
    'autocannon records latencies in whole milliseconds, so p50/p99 below ~2 ms are coarse; the mean is finer.',
  )
  for (const f of figures) for (const n of f.notes) out.push(`note (${f.id}): ${n}`)
  out.push(...sectionLines)
  const s = extra.serve as
    | {
        serverCpuUsPerRequest?: Record<string, { finctl: number; bare: number }>
        loaderCpuShare?: Record<string, { finctl: number; bare: number }>
        finctlStderrLinesPerRequest?: number
      }
    | undefined
  if (s?.finctlStderrLinesPerRequest !== undefined) {
    out.push(
      `finctl serve wrote ${s.finctlStderrLinesPerRequest.toFixed(2)} stderr line(s) per POST request (its default log level; 1 = an access-log line each)`,
    )
  }
  if (s?.serverCpuUsPerRequest) {
    for (const [k, v] of Object.entries(s.serverCpuUsPerRequest)) {
      const l = s.loaderCpuShare?.[k]
      out.push(
        `server CPU per request (${k}): finctl ${v.finctl.toFixed(0)} µs, bare ${v.bare.toFixed(0)} µs (${(v.finctl / v.bare).toFixed(1)}x)` +
          (l ? `; autocannon used ${(100 * l.finctl).toFixed(0)}% / ${(100 * l.bare).toFixed(0)}% of a core` : ''),
      )
    }
  }
  if (errors.length) out.push('', ...errors.map((e) => `ERROR in ${e.section}: ${e.message.split('\n')[0]}`))
  const regressed = flags.check ? figures.filter((f) => f.target?.guard && !f.target.pass) : []
  for (const f of regressed) out.push(`REGRESSION (${f.id}): ${f.ratio.toFixed(2)}x of ${f.baselineLabel}, the guard is ${f.target?.text}`)
  out.push('', `written to ${jsonPath}`)
  process.stdout.write(`${out.join('\n')}\n`)
  const prof = extra.cpuProfile as { finctl: ProfiledRun; bare: ProfiledRun } | undefined
  if (prof) printProfiles(prof)
  return errors.length || regressed.length ? 1 : 0
}

main().then(
  (code) => {
    cleanupNow()
    process.exitCode = code
  },
  (err) => {
    log(`bench: ${(err as Error)?.stack ?? err}`)
    cleanupNow()
    process.exitCode = 1
  },
)
