/**
 * Section `reports`: bench/reports.ts in a child process (it loads N generated transactions into a
 * temp SQLite file, then times both reports through the embedded client, p50/p95), beside the same
 * range's totals as one plain SQL aggregate over the same index (the ceiling).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { makeFigure, type Figure } from './report.js'

export interface ReportsConfig {
  rows: number
  runs: number
}

interface Timing {
  label: string
  p50: number
  p95: number
  first: number
}

export function runReportsSection(
  root: string,
  c: ReportsConfig,
  log: (l: string) => void,
  database?: string,
): { figures: Figure[]; lines: string[]; extra: unknown } {
  const store = database ? 'PostgreSQL' : 'SQLite'
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'bench', 'reports.ts'),
      '--rows',
      String(c.rows),
      '--runs',
      String(c.runs),
      '--json',
      ...(database ? ['--database', database] : []),
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 20 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  for (const line of (r.stderr ?? '').split('\n').filter((l) => l && !l.startsWith('npm warn'))) log(`reports: ${line}`)
  if (r.status !== 0) throw new Error(`bench/reports.ts exited ${r.status ?? r.signal}`)
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { rows: number; checked: boolean; baseline: Timing; results: Timing[] }
  if (!out.checked) throw new Error('a report disagreed with plain SQL over the same data')
  const rows = out.rows >= 1_000_000 ? `${out.rows / 1_000_000}M` : `${out.rows / 1000}k`
  const id = database ? 'reports.pg' : 'reports'
  const figures = out.results.flatMap((t, i) => [
    makeFigure({
      id: `${id}.${i}.p50`,
      label: `${t.label} (${rows} rows, ${store}) p50`,
      unit: 'ms',
      spread: 'min-max',
      value: [t.p50],
      baselineLabel: 'plain SQL totals p50',
      baseline: [out.baseline.p50],
    }),
    makeFigure({
      id: `${id}.${i}.p95`,
      label: `${t.label} (${rows} rows, ${store}) p95`,
      unit: 'ms',
      spread: 'min-max',
      value: [t.p95],
      baselineLabel: 'plain SQL totals p95',
      baseline: [out.baseline.p95],
    }),
  ])
  const lines = [
    `reports (${store}): ${out.rows.toLocaleString('en-US')} transactions; each report p50/p95 over ${c.runs} runs; plain SQL totals p50 ${out.baseline.p50.toFixed(1)} ms`,
  ]
  return { figures, lines, extra: out }
}
