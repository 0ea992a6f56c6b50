/** Display helpers: dates, durations and masked secrets (amounts: money.ts). */
import { AppError } from '../kernel/errors.js'

/** "90d", "12h", "30m", "2w" -> milliseconds. */
export function parseDuration(text: string, flag?: string): number {
  const m = /^(\d+)\s*([smhdw])$/i.exec(text.trim())
  if (!m) throw new AppError('usage', `${flag ? `${flag}: ` : ''}"${text}" is not a duration: write it like 90d, 12h, 30m or 2w`)
  const unit = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }[m[2].toLowerCase() as 's']
  return Number(m[1]) * unit
}

export function mask(secret: string | undefined, keep = 12): string {
  if (!secret) return ''
  return `${secret.slice(0, keep)}…`
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10)
}
