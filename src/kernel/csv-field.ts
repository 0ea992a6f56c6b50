/** One field of CSV output, safe in a spreadsheet: the project's one CSV writer (tx list, reports, export). */

export function csvField(s: string): string {
  // Guard spreadsheet formula injection, then quote per RFC 4180. Only a plain number (an amount
  // such as -12.50, optionally with its currency: -12.50 USD) may start with '-'; anything else
  // starting with = + - @ tab or CR (e.g. -2+3+cmd|...) is prefixed with ' so it stays text.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?( [A-Z]{3})?$/.test(s) ? `'${s}` : s
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}
