/**
 * A SIE 4 file read against the format's rules (docs/exporting.md, "Checking a file"): #FLAGGA
 * first, #FORMAT PC8, #SIETYP 4, each #VER's #TRANS summing to zero, each account of a #TRANS
 * declared by #KONTO, each balance account's #IB plus its #TRANS equal to its #UB and each result
 * account's #TRANS to its #RES, and #KSUMMA, when the file has one, equal to the checksum of what it
 * covers. `readSie` gives the balances, for a round trip.
 */
import { crc32 } from 'node:zlib'
import type { CheckReport } from './check-report.js'
import { Problems, scaled, shownUnits } from './check-report.js'
import { lines } from './check-lines.js'
import { encode } from '../../domain/exports/formats/legacy-text.js'

/** A record's label and fields: "quoted" (\" and \\ escaped), {object lists}, or bare words. */
export function sieFields(text: string): { label: string; fields: string[]; raw: string[] } | undefined {
  const s = text.trim()
  if (!s.startsWith('#')) return undefined
  const fields: string[] = []
  const raw: string[] = []
  let i = 0
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++
    if (i >= s.length) break
    if (s[i] === '"') {
      let v = ''
      i++
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length) i++
        v += s[i++]
      }
      i++
      fields.push(v)
      raw.push(v)
    } else if (s[i] === '{') {
      const end = s.indexOf('}', i)
      const v = end < 0 ? s.slice(i) : s.slice(i, end + 1)
      fields.push(v)
      // An object list's contents count in the checksum, its braces do not.
      raw.push(v.replace(/^\{|\}$/g, ''))
      i = end < 0 ? s.length : end + 1
    } else {
      let j = i
      while (j < s.length && s[j] !== ' ' && s[j] !== '\t') j++
      fields.push(s.slice(i, j))
      raw.push(s.slice(i, j))
      i = j
    }
  }
  return { label: fields[0], fields: fields.slice(1), raw }
}

export interface SieAccount {
  name?: string
  ib?: bigint
  ub?: bigint
  res?: bigint
  /** The sum of its #TRANS amounts. */
  trans: bigint
  /** The line of its #UB or #RES, for a message. */
  line?: number
}

export interface SieRead {
  report: CheckReport
  accounts: Map<string, SieAccount>
  vouchers: number
}

/** Amounts in units of 0.01 (SIE writes at most two decimals). */
const amount = (s: string | undefined) => (s === undefined ? undefined : scaled(s, 2))

export async function readSie(path: string): Promise<SieRead> {
  const p = new Problems()
  const accounts = new Map<string, SieAccount>()
  const at = (n: string) => {
    const had = accounts.get(n)
    if (had) return had
    const a: SieAccount = { trans: 0n }
    accounts.set(n, a)
    return a
  }
  const declared = new Set<string>()
  let flagga = false
  let format: string | undefined
  let type: string | undefined
  let summing = false
  let sumClosed = false
  let crc = 0
  let voucher: { line: number; name: string; sum: bigint } | undefined
  let inBody = false
  let vouchers = 0
  for await (const l of lines(path, 'cp437')) {
    const t = l.text.trim()
    if (t === '') continue
    if (t === '{') {
      if (!voucher) p.add(l.n, '{ without a #VER before it')
      inBody = true
      continue
    }
    if (t === '}') {
      if (voucher && voucher.sum !== 0n)
        p.add(voucher.line, `voucher ${voucher.name}: its #TRANS sum to ${shownUnits(voucher.sum, 2)}, not 0`)
      voucher = undefined
      inBody = false
      continue
    }
    const r = sieFields(t)
    if (!r) {
      p.add(l.n, 'a line that is no record (records start with #)')
      continue
    }
    if (!flagga && r.label !== '#FLAGGA') p.add(l.n, `${r.label} before #FLAGGA (the file's first record)`)
    if (r.label === '#KSUMMA') {
      if (!summing && !sumClosed && r.fields.length === 0) summing = true
      else if (summing && r.fields.length === 1) {
        summing = false
        sumClosed = true
        const want = Number(r.fields[0])
        if (crc >>> 0 !== want) p.add(l.n, `#KSUMMA ${r.fields[0]} is not the checksum of the file (${crc >>> 0})`)
      } else p.add(l.n, '#KSUMMA out of place: one empty #KSUMMA after #FLAGGA, one with the checksum at the end')
      continue
    }
    if (summing) crc = crc32(encode(r.raw.join(''), 'cp437'), crc)
    switch (r.label) {
      case '#FLAGGA':
        flagga = true
        break
      case '#FORMAT':
        format = r.fields[0]
        break
      case '#SIETYP':
        type = r.fields[0]
        break
      case '#KONTO':
        declared.add(r.fields[0])
        at(r.fields[0]).name = r.fields[1]
        break
      case '#IB':
      case '#UB':
      case '#RES': {
        if (r.fields[0] !== '0') break
        const v = amount(r.fields[2])
        if (v === undefined) p.add(l.n, `${r.label} ${r.fields[1]}: "${r.fields[2] ?? ''}" is not an amount`)
        else {
          const a = at(r.fields[1])
          if (r.label === '#IB') a.ib = v
          else {
            if (r.label === '#UB') a.ub = v
            else a.res = v
            a.line = l.n
          }
        }
        break
      }
      case '#VER':
        if (inBody) p.add(l.n, '#VER inside another voucher')
        vouchers++
        voucher = { line: l.n, name: `${r.fields[0] ?? ''} ${r.fields[1] ?? ''}`.trim(), sum: 0n }
        break
      case '#TRANS': {
        if (!inBody || !voucher) {
          p.add(l.n, '#TRANS outside a voucher')
          break
        }
        const v = amount(r.fields[2])
        if (v === undefined) {
          p.add(l.n, `#TRANS ${r.fields[0]}: "${r.fields[2] ?? ''}" is not an amount`)
          break
        }
        if (!declared.has(r.fields[0])) p.add(l.n, `#TRANS to account ${r.fields[0]}, which no #KONTO declares`)
        voucher.sum += v
        at(r.fields[0]).trans += v
        break
      }
    }
  }
  if (!flagga) p.add(0, 'no #FLAGGA')
  if (format !== 'PC8') p.add(0, `#FORMAT is ${format ?? 'missing'}, not PC8`)
  if (type !== '4') p.add(0, `#SIETYP is ${type ?? 'missing'}, not 4`)
  if (summing) p.add(0, '#KSUMMA opened but never closed with the checksum')
  if (voucher) p.add(voucher.line, `voucher ${voucher.name} is not closed with }`)
  for (const [n, a] of accounts) {
    if (a.ub !== undefined && (a.ib ?? 0n) + a.trans !== a.ub)
      p.add(
        a.line ?? 0,
        `account ${n}: #IB ${shownUnits(a.ib ?? 0n, 2)} + its #TRANS ${shownUnits(a.trans, 2)} is not its #UB ${shownUnits(a.ub, 2)}`,
      )
    if (a.res !== undefined && a.trans !== a.res)
      p.add(a.line ?? 0, `account ${n}: its #TRANS ${shownUnits(a.trans, 2)} are not its #RES ${shownUnits(a.res, 2)}`)
  }
  const checks = ['#FLAGGA, #FORMAT PC8, #SIETYP 4', 'each voucher balances', 'accounts declared', '#IB + #TRANS = #UB, #TRANS = #RES']
  if (sumClosed) checks.push('#KSUMMA')
  return {
    report: {
      format: 'sie4',
      problems: p.list,
      checks,
      rows: vouchers,
      ...(p.count > p.list.length ? { more: p.count - p.list.length } : {}),
    },
    accounts,
    vouchers,
  }
}

export async function checkSie(path: string): Promise<CheckReport> {
  return (await readSie(path)).report
}
