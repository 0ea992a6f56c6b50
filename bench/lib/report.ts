/** Figures beside their baselines: the ratio, the target verdict and the printed table. */
import { pairedRatios, summarize, type Summary } from './stats.js'

export interface Target {
  /** 'max': ratio must be below `ratio`; 'min': ratio must be at least `ratio`. */
  kind: 'max' | 'min'
  ratio: number
  /** A guard against regression: `--check` fails the run when it does not hold. */
  guard?: boolean
}

export interface Figure {
  id: string
  label: string
  unit: 'ms' | 's' | 'req/s' | 'lines/s' | 'MiB'
  /** Which spread the table shows: p10–p90 for many samples, min–max for a few rounds. */
  spread: 'p10-p90' | 'min-max'
  value: Summary
  baselineLabel: string
  baseline: Summary
  /** median(value) / median(baseline): the headline ratio. */
  ratio: number
  /** value[i] / baseline[i] over paired iterations or rounds. */
  pairedRatio: Summary
  target?: Target & { pass: boolean; text: string }
  notes: string[]
}

export function makeFigure(f: {
  id: string
  label: string
  unit: Figure['unit']
  spread: Figure['spread']
  value: number[]
  baselineLabel: string
  baseline: number[]
  target?: Target
  notes?: string[]
}): Figure {
  const value = summarize(f.value)
  const baseline = summarize(f.baseline)
  // A zero baseline (e.g. a latency under autocannon's 1 ms resolution) has no meaningful ratio.
  const ratio = baseline.median > 0 ? value.median / baseline.median : Number.NaN
  let target: Figure['target']
  if (f.target) {
    const pass = Number.isFinite(ratio) && (f.target.kind === 'max' ? ratio < f.target.ratio : ratio >= f.target.ratio)
    const text = `${f.target.kind === 'max' ? '<' : '>='} ${f.target.ratio.toFixed(2)}x`
    target = { ...f.target, pass, text }
  }
  return {
    id: f.id,
    label: f.label,
    unit: f.unit,
    spread: f.spread,
    value,
    baselineLabel: f.baselineLabel,
    baseline,
    ratio,
    pairedRatio: summarize(pairedRatios(f.value, f.baseline).filter(Number.isFinite)),
    target,
    notes: f.notes ?? [],
  }
}

function num(x: number, unit: Figure['unit']): string {
  if (!Number.isFinite(x)) return 'n/a'
  if (unit === 'req/s' || unit === 'lines/s') return x >= 100 ? x.toFixed(0) : x.toFixed(1)
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)
}

function cell(s: Summary, unit: Figure['unit'], spread: Figure['spread']): string {
  const [lo, hi] = spread === 'p10-p90' ? [s.p10, s.p90] : [s.min, s.max]
  return `${num(s.median, unit)} ${unit} [${num(lo, unit)}–${num(hi, unit)}]`
}

function ratioCell(f: Figure): string {
  if (!Number.isFinite(f.ratio)) return 'n/a (baseline 0)'
  const r = f.pairedRatio
  const [lo, hi] = f.spread === 'p10-p90' ? [r.p10, r.p90] : [r.min, r.max]
  return `${f.ratio.toFixed(2)}x [${lo.toFixed(2)}–${hi.toFixed(2)}]`
}

/** A plain-text table: figure | value | baseline | ratio | target. */
export function renderTable(figures: Figure[]): string {
  const header = ['figure', 'value: median [spread]', 'baseline: median [spread]', 'ratio [paired spread]', 'target']
  const rows = figures.map((f) => [
    f.label,
    cell(f.value, f.unit, f.spread),
    `${f.baselineLabel}: ${cell(f.baseline, f.unit, f.spread)}`,
    ratioCell(f),
    f.target ? `${f.target.text} ${f.target.pass ? 'PASS' : 'FAIL'}` : '—',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join(' | ')
      .trimEnd()
  const sep = widths.map((w) => '-'.repeat(w)).join('-|-')
  return [line(header), sep, ...rows.map(line)].join('\n')
}
