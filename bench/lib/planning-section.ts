/**
 * Section `planning`: bench/planning.ts in a child process (N generated transactions in a temp
 * SQLite file): the budget report beside the summary it reads, the 365-day forecast beside the
 * cash flow of those days, recurring detection over every row beside a plain SQL read of them.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { makeFigure, type Figure } from './report.js'

export interface PlanningConfig {
  rows: number
  runs: number
  detectRuns: number
}

interface Timing {
  label: string
  p50: number
  p95: number
  samples: number[]
}

export function runPlanningSection(
  root: string,
  c: PlanningConfig,
  log: (l: string) => void,
): { figures: Figure[]; lines: string[]; extra: unknown } {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'bench', 'planning.ts'),
      '--rows',
      String(c.rows),
      '--runs',
      String(c.runs),
      '--detect-runs',
      String(c.detectRuns),
      '--json',
    ],
    { cwd: root, encoding: 'utf8', timeout: 30 * 60_000, maxBuffer: 16 * 1024 * 1024 },
  )
  for (const line of (r.stderr ?? '').split('\n').filter((l) => l && !l.startsWith('npm warn'))) log(`planning: ${line}`)
  if (r.status !== 0) throw new Error(`bench/planning.ts exited ${r.status ?? r.signal}`)
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    rows: number
    checked: boolean
    budget: Timing
    summary: Timing
    forecast: Timing
    cashFlow: Timing
    detect: { ms: number[]; plainMs: number[]; found: number; peakRssMiB: number; heapGrowthMiB: number }
  }
  if (!out.checked) throw new Error("the budget report's actuals disagreed with the summary's")
  const rows = out.rows >= 1_000_000 ? `${out.rows / 1_000_000}M` : `${out.rows / 1000}k`
  const pair = (id: string, t: Timing, base: Timing, goal: string) =>
    (['p50', 'p95'] as const).map((p) =>
      makeFigure({
        id: `planning.${id}.${p}`,
        label: `${t.label} (${rows} rows) ${p}`,
        unit: 'ms',
        spread: 'min-max',
        value: [t[p]],
        baselineLabel: `${base.label} ${p}`,
        baseline: [base[p]],
        notes: p === 'p95' ? [goal] : [],
      }),
    )
  const figures = [
    ...pair('budget', out.budget, out.summary, 'asked: within 50 ms p95 at 1,000,000 transactions'),
    ...pair('forecast', out.forecast, out.cashFlow, 'asked: within 100 ms'),
    makeFigure({
      id: 'planning.detect',
      label: `recurring detect (${rows} rows)`,
      unit: 's',
      spread: 'min-max',
      value: out.detect.ms.map((m) => m / 1000),
      baselineLabel: 'plain SQL read of the same columns',
      baseline: out.detect.plainMs.map((m) => m / 1000),
      notes: [
        `asked: within 10 s at 1,000,000; peak RSS +${out.detect.peakRssMiB.toFixed(0)} MiB, heap +${out.detect.heapGrowthMiB.toFixed(0)} MiB; ${out.detect.found} series found`,
      ],
    }),
  ]
  const lines = [
    `planning: ${out.rows.toLocaleString('en-US')} transactions; budget report p95 ${out.budget.p95.toFixed(1)} ms (summary ${out.summary.p95.toFixed(1)}), forecast 365 days p95 ${out.forecast.p95.toFixed(1)} ms (cash flow by day ${out.cashFlow.p95.toFixed(1)}), detect ${out.detect.ms.map((m) => (m / 1000).toFixed(2)).join('/')} s (plain read ${out.detect.plainMs.map((m) => (m / 1000).toFixed(2)).join('/')} s), peak RSS +${out.detect.peakRssMiB.toFixed(0)} MiB`,
  ]
  return { figures, lines, extra: out }
}
