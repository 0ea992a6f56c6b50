/**
 * Section `categorize`: what categorizing imported rows costs. The target: "Prediction adds
 * under 10% to the 1M-row import time."
 *
 * Each repetition sets up three FRESH embedded databases (their own config dir, company, bench API
 * key without practical rate limits, via prepareFinctl):
 *   A (baseline, no categorization): no labelled data and no rules, so `prepareCategorizer` returns
 *     its no-op and categorization is skipped entirely. It gets the same 20,000 extra rows as B,
 *     without their Category column, so that all databases hold the same number of rows before the
 *     timed import.
 *   B (categorizing): the same 20,000 rows imported WITH their Category column
 *     (`--map category=Category`; a generated data set from another seed) as the model's training
 *     data, plus 5 rules (`finctl rules create`: 3 description-contains, 1 regex, 1 amount range).
 *   C (categories given): set up exactly as A (the 20,000 rows without category, no rules, no
 *     labels), but its timed file is the same N rows WITH their generated Category column, imported
 *     with `--map category=Category`. C stores as many categorized rows as B (more: B leaves some
 *     uncategorized), so it pays what storing categorized rows costs (the partial index
 *     transactions_company_category, the category bytes) without rules or predictions. It does pay
 *     what any import of categorized rows pays: those rows are labels, which the model learns
 *     (incrementally, retraining at 2x, 4x, ... of what it was trained on).
 * Then `finctl tx import big.csv --account ID --json --no-progress` into a fresh account of each
 * (C with `--map category=Category` on big-cat.csv), the order of A, B, C rotated over repetitions
 * (ABC, BCA, CAB, ...). A and B import the same file: Date, Description, Amount, no category, from
 * `generateDataset` (src/domain/categorization/dataset.ts, seeded), so the model predicts on realistic
 * bank descriptions; C's file is the same rows plus Category. Figures: B / C, the prediction
 * overhead (rules + model vs the same rows arriving categorized), target ratio < 1.10; B / A
 * (categorization vs none) for context, no target. After each import the SQLite file is opened
 * read-only and the rows are counted by how they got (or did not get) a category; the section fails
 * if B scored none, A has any category or score, or C has a row without its category or with a score.
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import { encodeLabel } from '../../src/domain/categorization/labels.js'
import type { Features } from '../../src/domain/categorization/features.js'
import { CategoryModel } from '../../src/domain/categorization/model.js'
import { makeTempDir } from './children.js'
import { makeFigure, type Figure } from './report.js'
import { summarize } from './stats.js'
import { prepareFinctl, type FinctlSetup } from './throughput.js'

export interface CategorizeConfig {
  /** Row counts of the timed import, smallest first, e.g. [100_000, 1_000_000]. */
  sizes: number[]
  /** A/B/C repetitions per size (same index as `sizes`), each on three fresh databases. */
  repeats: number[]
  /** Rows of the labelled CSV B is trained on. */
  labelled: number
}

const BIG_SEED = 1
const LABELLED_SEED = 2

/** The 5 rules of database B: 3 description-contains, 1 regex, 1 amount range (category only). */
const RULES: string[][] = [
  ['--description-contains', 'amazon web services', '--set', 'category=Cloud hosting'],
  ['--description-contains', 'stripe', '--set', 'category=Card processor payouts'],
  ['--description-contains', 'gusto', '--set', 'category=Payroll'],
  ['--matches', '^(pos|visa debit|card payment) .*(shell|chevron|bp)\\b', '--set', 'category=Fuel'],
  ['--min-amount', '-1.00', '--max-amount', '-0.01', '--set', 'category=Bank fees'],
]

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)

/** Rows as CSV: Date, Description, Amount (and Category when `withCategory`), written in chunks. */
function writeRows(path: string, rows: LabelledTransaction[], withCategory: boolean): void {
  writeFileSync(path, withCategory ? 'Date,Description,Amount,Category\n' : 'Date,Description,Amount\n')
  const chunk: string[] = []
  for (const r of rows) {
    const line = `${r.transaction_date},${csvField(r.description)},${r.amount}`
    chunk.push(withCategory ? `${line},${csvField(r.category)}` : line)
    if (chunk.length >= 50_000) {
      writeFileSync(path, `${chunk.join('\n')}\n`, { flag: 'a' })
      chunk.length = 0
    }
  }
  if (chunk.length) writeFileSync(path, `${chunk.join('\n')}\n`, { flag: 'a' })
}

interface CliRun {
  seconds: number
  rssMb?: number
  /** User + system time of the process (/usr/bin/time), all its threads. */
  cpuSeconds?: number
  created: number
  duplicates: number
}

function cli(root: string, env: NodeJS.ProcessEnv, cwd: string, args: string[], timeoutMs = 60_000): string {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'finctl.cjs'), ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.status !== 0)
    throw new Error(`finctl ${args.slice(0, 3).join(' ')} exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  return r.stdout
}

function runImport(root: string, env: NodeJS.ProcessEnv, cwd: string, file: string, account: string, extraArgs: string[] = []): CliRun {
  const bin = join(root, 'bin', 'finctl.cjs')
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined
  const args = ['tx', 'import', file, '--account', account, ...extraArgs, '--json', '--no-progress']
  const opts = { cwd, env, encoding: 'utf8' as const, timeout: 30 * 60_000, maxBuffer: 64 * 1024 * 1024 }
  // The earlier imports' dirty pages (hundreds of MB at a million rows) written back now, not
  // during this import's time.
  spawnSync('sync')
  const t0 = performance.now()
  const r = timeBin
    ? spawnSync(timeBin, ['-f', 'FINCTL_MAXRSS_KB=%M FINCTL_CPU_S=%U+%S', process.execPath, bin, ...args], opts)
    : spawnSync(process.execPath, [bin, ...args], opts)
  const seconds = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`finctl tx import exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-2000)}`)
  const summary = JSON.parse(r.stdout) as { created: number; rejected: number; already_imported: number }
  if (summary.rejected) throw new Error(`finctl rejected ${summary.rejected} generated rows`)
  const kb = /FINCTL_MAXRSS_KB=(\d+)/.exec(r.stderr ?? '')?.[1]
  const cpu = /FINCTL_CPU_S=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '')
  return {
    seconds,
    rssMb: kb ? Number(kb) / 1024 : undefined,
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
    created: summary.created,
    duplicates: summary.already_imported,
  }
}

/** Median B / median C of the imports' processor time (user + system), where /usr/bin/time gave it. */
function cpuRatio(reps: Repetition[]): string {
  const b = reps.map((p) => p.b.cpuSeconds)
  const c = reps.map((p) => p.c.cpuSeconds)
  if (b.some((x) => x === undefined) || c.some((x) => x === undefined)) return '? (no /usr/bin/time)'
  const med = (xs: (number | undefined)[]) => summarize(xs as number[]).median
  return `${(med(b) / med(c)).toFixed(3)}x (B ${med(b).toFixed(1)} s, C ${med(c).toFixed(1)} s)`
}

interface Db {
  setup: FinctlSetup
  /** The bench key instead of the profile's rate-limited init key. */
  env: NodeJS.ProcessEnv
}

function freshDb(root: string, log: (l: string) => void): Db {
  const setup = prepareFinctl(root, log)
  return { setup, env: { ...setup.env, FINCTL_API_KEY: setup.apiKey } }
}

function newAccount(root: string, db: Db, name: string): string {
  const out = cli(root, db.env, db.setup.configDir, [
    'accounts',
    'create',
    '--name',
    name,
    '--type',
    'checking',
    '--currency',
    'USD',
    '--json',
  ])
  return (JSON.parse(out) as { id: string }).id
}

/** How the rows of one account got (or did not get) their category. */
export interface CategoryCounts {
  rows: number
  /** Category and no score: set by a rule (A's and B's files have no category) or, in C, by the file. */
  byRule: number
  /** Category and a score (>= threshold): filled by the model. */
  byModel: number
  /** No category, with a score below the threshold: left for review. */
  review: number
  /** No category, no score: the model had no prediction (or was skipped). */
  none: number
  /** Of `byModel`, rows whose category equals the generated ground truth (matched on date, description, amount). */
  modelRight?: number
  modelChecked?: number
}

function countCategories(database: string, account: string, truth?: Map<string, string>): CategoryCounts {
  const db = new Database(database, { readonly: true, fileMustExist: true })
  try {
    const c = db
      .prepare(
        `SELECT count(*) AS rows,
                coalesce(sum(category IS NOT NULL AND ai_confidence_score IS NULL), 0) AS byRule,
                coalesce(sum(category IS NOT NULL AND ai_confidence_score IS NOT NULL), 0) AS byModel,
                coalesce(sum(category IS NULL AND ai_confidence_score IS NOT NULL), 0) AS review,
                coalesce(sum(category IS NULL AND ai_confidence_score IS NULL), 0) AS none
           FROM transactions WHERE account_key = (SELECT key FROM bank_accounts WHERE id = ?)`,
      )
      .get(account) as CategoryCounts
    if (truth && c.byModel > 0) {
      let right = 0
      let checked = 0
      const it = db
        .prepare(
          'SELECT transaction_date AS d, description AS t, amount AS a, category AS c FROM transactions WHERE account_key = (SELECT key FROM bank_accounts WHERE id = ?) AND category IS NOT NULL AND ai_confidence_score IS NOT NULL',
        )
        .iterate(account) as IterableIterator<{ d: string; t: string; a: string | number; c: string }>
      for (const r of it) {
        const want = truth.get(`${r.d}\u0000${r.t}\u0000${String(r.a)}`)
        if (want === undefined) continue
        checked++
        if (want === r.c) right++
      }
      c.modelRight = right
      c.modelChecked = checked
    }
    return { ...c }
  } finally {
    db.close()
  }
}

type Variant = 'A' | 'B' | 'C'
const VARIANTS: Variant[] = ['A', 'B', 'C']

/** One repetition: A, B and C on three fresh databases, in the order `order`. */
interface Repetition {
  order: string
  a: CliRun & { counts: CategoryCounts }
  b: CliRun & { counts: CategoryCounts }
  c: CliRun & { counts: CategoryCounts }
  /** B / A: categorization vs none (context). */
  ratioBA: number
  /** B / C: rules + model vs the same rows arriving categorized (the prediction overhead). */
  ratioBC: number
  /** C / A: categorized rows given in the file vs no category (context). */
  ratioCA: number
  /** B's model before the timed import (`finctl model status --json`). */
  model: { trained_on: number; labels: number; threshold: number }
  rulesCreated: number
  setupSeconds: number
}

const featuresOf = (r: LabelledTransaction): Features => ({
  description: r.description,
  merchant_name: null,
  amount_minor: r.amount_minor,
  currency_exponent: 2,
})

/**
 * Context: the model alone, in this process: training on the labelled rows (as B's import labels
 * them: category only) and predicting every row of the timed file, without rules or the database.
 */
function modelAlone(
  labelled: LabelledTransaction[],
  rows: LabelledTransaction[],
): { trainSeconds: number; predictSeconds: number; usPerRow: number } {
  const t0 = performance.now()
  const model = CategoryModel.train(
    labelled.map((r) => ({
      ...featuresOf(r),
      label: encodeLabel({ category: r.category, accounting_category: null, cash_flow_category: null }),
    })),
  )
  const t1 = performance.now()
  let scored = 0
  for (const r of rows) if (model.predict(featuresOf(r))) scored++
  const t2 = performance.now()
  if (scored !== rows.length) throw new Error(`model alone scored ${scored} of ${rows.length} rows`)
  return { trainSeconds: (t1 - t0) / 1000, predictSeconds: (t2 - t1) / 1000, usPerRow: ((t2 - t1) * 1000) / rows.length }
}

const pct = (x: number, n: number) => `${((100 * x) / Math.max(1, n)).toFixed(1)}%`

export async function runCategorizeSection(
  root: string,
  c: CategorizeConfig,
  log: (l: string) => void,
): Promise<{ figures: Figure[]; lines: string[]; extra: unknown }> {
  const dir = makeTempDir('categorize')
  const figures: Figure[] = []
  const lines: string[] = [
    `categorize: A = no rules, no labels, file without categories (categorization skipped) | B = ${RULES.length} rules + model on ${c.labelled.toLocaleString('en-US')} labelled rows, same file | ` +
      `C = A's set-up, the same rows WITH their Category column (--map category=Category); medians [min–max], peak RSS`,
    `categorize: B/C = prediction overhead (rules + model vs the same rows arriving categorized), target < 1.10 | B/A = categorization vs none, C/A = categories given vs none (context, no target); median ratio [paired min–max]`,
  ]
  const extra: Record<string, unknown> = { labelledRows: c.labelled, rules: RULES, seeds: { big: BIG_SEED, labelled: LABELLED_SEED } }

  // The labelled data set (B's training data) and the same rows without their category (A's and C's filler).
  const labelled = generateDataset({ size: c.labelled, seed: LABELLED_SEED })
  const labelledCsv = join(dir, 'labelled.csv')
  const fillerCsv = join(dir, 'filler.csv')
  writeRows(labelledCsv, labelled, true)
  writeRows(fillerCsv, labelled, false)

  let repNo = 0
  for (let si = 0; si < c.sizes.length; si++) {
    const n = c.sizes[si]
    const repeats = c.repeats[si] ?? 1
    const label = n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`
    const t0 = performance.now()
    const rows = generateDataset({ size: n, seed: BIG_SEED })
    const file = join(dir, `big-${n}.csv`)
    const catFile = join(dir, `big-${n}-categorized.csv`)
    writeRows(file, rows, false)
    writeRows(catFile, rows, true)
    // Ground truth by (date, description, amount in minor units), to check the model's fills.
    const truth = new Map<string, string>()
    for (const r of rows) truth.set(`${r.transaction_date}\u0000${r.description}\u0000${r.amount_minor}`, r.category)
    const alone = modelAlone(labelled, rows)
    rows.length = 0
    log(
      `categorize: ${n.toLocaleString('en-US')} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB (${(statSync(catFile).size / 1e6).toFixed(1)} MB with Category), ` +
        `generated in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${repeats} A/B/C repetition(s), each on three fresh databases`,
    )

    const reps: Repetition[] = []
    for (let rep = 0; rep < repeats; rep++) {
      const shift = repNo++ % VARIANTS.length
      const order = [...VARIANTS.slice(shift), ...VARIANTS.slice(0, shift)]
      const s0 = performance.now()
      const dbs: Record<Variant, Db> = { A: freshDb(root, log), B: freshDb(root, log), C: freshDb(root, log) }
      // Same extra rows in all three; only B's carry a category (and so become training data).
      const fills = {
        A: runImport(root, dbs.A.env, dbs.A.setup.configDir, fillerCsv, newAccount(root, dbs.A, 'Filler')),
        B: runImport(root, dbs.B.env, dbs.B.setup.configDir, labelledCsv, newAccount(root, dbs.B, 'Labelled'), [
          '--map',
          'category=Category',
        ]),
        C: runImport(root, dbs.C.env, dbs.C.setup.configDir, fillerCsv, newAccount(root, dbs.C, 'Filler')),
      }
      for (const v of VARIANTS)
        if (fills[v].created !== c.labelled) throw new Error(`${v}: labelled/filler import created ${fills[v].created} of ${c.labelled}`)
      const B = dbs.B
      for (const rule of RULES) cli(root, B.env, B.setup.configDir, ['rules', 'create', ...rule, '--json'])
      const rulesCreated = (JSON.parse(cli(root, B.env, B.setup.configDir, ['rules', 'list', '--json'])) as unknown[]).length
      const status = JSON.parse(cli(root, B.env, B.setup.configDir, ['model', 'status', '--json'])) as {
        trained_on: number
        labels: number
        threshold: number
        auto_categorize: boolean
      }
      if (!status.auto_categorize || status.trained_on < c.labelled * 0.9)
        throw new Error(`B's model is not ready: ${JSON.stringify(status)}`)
      const setupSeconds = (performance.now() - s0) / 1000

      const timed = (which: Variant) => {
        const db = dbs[which]
        const r =
          which === 'C'
            ? runImport(root, db.env, db.setup.configDir, catFile, db.setup.accountId, ['--map', 'category=Category'])
            : runImport(root, db.env, db.setup.configDir, file, db.setup.accountId)
        if (r.created !== n) throw new Error(`${which}: import created ${r.created} of ${n} (already imported ${r.duplicates})`)
        const counts = countCategories(db.setup.database, db.setup.accountId, which === 'B' ? truth : undefined)
        log(
          `categorize: ${label} rep ${rep + 1}/${repeats} ${which}: ${r.seconds.toFixed(1)} s (processor ${r.cpuSeconds?.toFixed(1) ?? '?'} s), ${Math.round(n / r.seconds)} rows/s, peak RSS ${r.rssMb?.toFixed(0) ?? '?'} MB; ` +
            `category without score ${counts.byRule}, by model ${counts.byModel}, review ${counts.review}, no score ${counts.none}`,
        )
        return { ...r, counts }
      }
      const runs = {} as Record<Variant, CliRun & { counts: CategoryCounts }>
      for (const v of order) runs[v] = timed(v)
      const { A: a, B: b, C: cc } = runs
      if (b.counts.byModel + b.counts.review === 0)
        throw new Error(`B: no row of the ${label} import got a model score (by rule ${b.counts.byRule}, none ${b.counts.none})`)
      if (a.counts.byModel + a.counts.review + a.counts.byRule !== 0)
        throw new Error(`A: categorization was not skipped (${JSON.stringify(a.counts)})`)
      // C: every row keeps the category of its file and gets no score (no rule, no prediction).
      if (cc.counts.byRule !== n || cc.counts.byModel + cc.counts.review + cc.counts.none !== 0)
        throw new Error(`C: rows not all categorized from the file, or scored (${JSON.stringify(cc.counts)})`)
      reps.push({
        order: order.join(''),
        a,
        b,
        c: cc,
        ratioBA: b.seconds / a.seconds,
        ratioBC: b.seconds / cc.seconds,
        ratioCA: cc.seconds / a.seconds,
        model: { trained_on: status.trained_on, labels: status.labels, threshold: status.threshold },
        rulesCreated,
        setupSeconds,
      })
      log(
        `categorize: ${label} rep ${rep + 1}/${repeats} (${order.join('')}): B/C ${(b.seconds / cc.seconds).toFixed(3)}, B/A ${(b.seconds / a.seconds).toFixed(3)}, C/A ${(cc.seconds / a.seconds).toFixed(3)}`,
      )
      // Free the disk of this repetition (1M-row databases are large); cleanup would remove them at exit anyway.
      for (const v of VARIANTS) rmSync(dbs[v].setup.configDir, { recursive: true, force: true, maxRetries: 3 })
    }

    const aS = reps.map((p) => p.a.seconds)
    const bS = reps.map((p) => p.b.seconds)
    const cS = reps.map((p) => p.c.seconds)
    const spreadBC = summarize(reps.map((p) => p.ratioBC))
    const spreadBA = summarize(reps.map((p) => p.ratioBA))
    const spreadCA = summarize(reps.map((p) => p.ratioCA))
    const notesBC: string[] = []
    if (reps.length > 1 && spreadBC.min < 1.1 && spreadBC.max >= 1.1)
      notesBC.push(`paired B/C ratios ${spreadBC.min.toFixed(2)}–${spreadBC.max.toFixed(2)} straddle the 1.10 target`)
    if (reps.length === 1) notesBC.push('one A/B/C repetition at this size: no spread')
    figures.push(
      makeFigure({
        id: `categorize.predict.${label}`,
        label: `tx import ${label} rows: rules + model (prediction overhead)`,
        unit: 's',
        spread: 'min-max',
        value: bS,
        baselineLabel: 'same rows, categories in the file',
        baseline: cS,
        target: { kind: 'max', ratio: 1.1 },
        notes: notesBC,
      }),
      makeFigure({
        id: `categorize.import.${label}`,
        label: `tx import ${label} rows + categorization (rules, model)`,
        unit: 's',
        spread: 'min-max',
        value: bS,
        baselineLabel: 'same import, categorization skipped',
        baseline: aS,
      }),
    )
    const last = reps[reps.length - 1].b.counts
    const sum = (k: keyof CategoryCounts) => reps.reduce((s, p) => s + (p.b.counts[k] ?? 0), 0)
    const right = sum('modelRight')
    const checked = sum('modelChecked')
    const med = (xs: number[]) => summarize(xs).median
    const secs = (xs: number[], rss: (number | undefined)[]) =>
      `${med(xs).toFixed(1)} s [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}] (${med(rss.map((x) => x ?? Number.NaN)).toFixed(0)} MB)`
    const ratio = (x: number, sp: ReturnType<typeof summarize>) => `${x.toFixed(3)}x [${sp.min.toFixed(3)}–${sp.max.toFixed(3)}]`
    lines.push(
      `categorize: ${label.padEnd(5)} | A ${secs(
        aS,
        reps.map((p) => p.a.rssMb),
      )} | B ${secs(
        bS,
        reps.map((p) => p.b.rssMb),
      )} | C ${secs(
        cS,
        reps.map((p) => p.c.rssMb),
      )} | orders ${reps.map((p) => p.order).join(' ')}`,
      `categorize: ${label.padEnd(5)} | B/C ${ratio(med(bS) / med(cS), spreadBC)} ${med(bS) / med(cS) < 1.1 ? 'PASS' : 'FAIL'} (< 1.10) | B/A ${ratio(med(bS) / med(aS), spreadBA)} | C/A ${ratio(med(cS) / med(aS), spreadCA)} | over ${reps.length} repetition(s)`,
      `categorize: ${label.padEnd(5)} | B's rows: by rule ${pct(last.byRule, n)} / by model >= threshold ${pct(last.byModel, n)} (${checked ? pct(right, checked) : '?'} right) / scored below, for review ${pct(last.review, n)} / no score ${pct(last.none, n)}; C's rows: 100% categorized from the file`,
      `categorize: ${label.padEnd(5)} context: B - C = ${(med(bS) - med(cS)).toFixed(1)} s (${(((med(bS) - med(cS)) * 1e6) / n).toFixed(1)} µs/row), ` +
        `C - A = ${(med(cS) - med(aS)).toFixed(1)} s (${(((med(cS) - med(aS)) * 1e6) / n).toFixed(1)} µs/row); ` +
        `processor time B/C ${cpuRatio(reps)}; the model alone in-process: training on ${c.labelled.toLocaleString('en-US')} rows ${alone.trainSeconds.toFixed(2)} s, predicting ${n.toLocaleString('en-US')} rows ${alone.predictSeconds.toFixed(1)} s (${alone.usPerRow.toFixed(1)} µs/row)`,
    )
    extra[label] = {
      rows: n,
      file: { bytes: statSync(file).size, categorizedBytes: statSync(catFile).size },
      modelAlone: alone,
      repetitions: reps,
    }
    rmSync(file, { force: true })
    rmSync(catFile, { force: true })
  }
  return { figures, lines, extra }
}
