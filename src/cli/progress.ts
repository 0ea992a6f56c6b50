/**
 * A progress line on stderr for long work (imports): done / total, rate and ETA, redrawn at most
 * ten times a second, on a terminal only (unless forced), and cleared when the work ends.
 */
import type { IO } from './io.js'
import { printableLine } from './terminal-text.js'

export interface ProgressState {
  done: number
  total: number
  elapsedMs: number
  /** Extra words after the figures, e.g. "1,234 already imported". */
  detail?: string
}

const n = (x: number) => x.toLocaleString('en-US')

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--'
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0')
  const ss = String(s % 60).padStart(2, '0')
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`
}

/** The text of one progress line (exported for tests). */
export function progressText(p: ProgressState, unit = 'rows'): string {
  const rate = p.elapsedMs > 0 ? (p.done * 1000) / p.elapsedMs : 0
  const eta = rate > 0 ? (p.total - p.done) / rate : Number.POSITIVE_INFINITY
  const pct = p.total > 0 ? Math.min(100, Math.floor((p.done * 100) / p.total)) : 100
  return `${n(p.done)} / ${n(p.total)} ${unit} (${pct}%)  ${n(Math.round(rate))} ${unit}/s  ETA ${clock(eta)}${p.detail ? `  ${p.detail}` : ''}`
}

export class ProgressLine {
  private last = 0
  private shown = false
  private readonly tty: boolean

  constructor(
    private readonly io: IO,
    private readonly enabled: boolean,
    private readonly unit = 'rows',
  ) {
    this.tty = io.isStderrTTY
  }

  update(p: ProgressState): void {
    if (!this.enabled) return
    const now = Date.now()
    if (now - this.last < 100 && p.done < p.total) return
    this.last = now
    const text = printableLine(progressText(p, this.unit))
    // On a terminal the line is redrawn in place; forced off a terminal, one line per update.
    this.io.stderr.write(this.tty ? `\r\x1b[2K${text}` : `${text}\n`)
    this.shown = true
  }

  end(): void {
    if (this.shown && this.tty) this.io.stderr.write('\r\x1b[2K')
    this.shown = false
  }
}
