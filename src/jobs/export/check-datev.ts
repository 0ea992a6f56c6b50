/**
 * A DATEV Buchungsstapel read against the format's rules (docs/exporting.md, "Checking a file"): the
 * header line (EXTF, format 700, category 21, adviser 1001-9999999, client 1-99999, fiscal year
 * start, account length 4-8, a period within one fiscal year, Festschreibung 0 or 1, a currency), the
 * column names, and each booking: Umsatz positive with at most two decimals, S or H, Konto and
 * Gegenkonto digits within the account length, Belegdatum a day of the period, Belegfeld 1 at most
 * 36 of DATEV's characters, Buchungstext at most 60, CRLF line ends.
 */
import type { CheckReport } from './check-report.js'
import { Problems } from './check-report.js'
import { lines, splitSemicolons } from './check-lines.js'
import { DATEV_LENGTHS } from '../../domain/exports/formats/datev.js'

const REQUIRED = ['Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'Konto', 'Gegenkonto (ohne BU-Schlüssel)', 'Belegdatum'] as const

const isDate = (s: string) => /^\d{8}$/.test(s) && !Number.isNaN(Date.parse(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T00:00:00Z`))
const iso = (s: string) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`

export async function checkDatev(path: string): Promise<CheckReport> {
  const p = new Problems()
  let columns: Map<string, number> | undefined
  let period: { from: string; to: string } | undefined
  let accountLength = 8
  let rows = 0
  let width = 0
  for await (const l of lines(path, 'win1252')) {
    if (l.last && l.text === '') break
    if (!l.crlf && !(l.last && l.text === '')) p.add(l.n, 'the line ends without CR LF (DATEV reads CRLF line ends)')
    const f = splitSemicolons(l.text)
    if (!f) {
      p.add(l.n, 'a quoted field is not closed')
      continue
    }
    if (l.n === 1) {
      const v = (i: number) => f[i - 1]?.value ?? ''
      if (v(1) !== 'EXTF' && v(1) !== 'DTVF') p.add(1, `field 1 is "${v(1)}", not EXTF`)
      if (v(2) !== '700') p.add(1, `field 2 (version) is "${v(2)}", not 700`)
      if (v(3) !== '21') p.add(1, `field 3 (format category) is "${v(3)}", not 21 (Buchungsstapel)`)
      if (v(4) !== 'Buchungsstapel') p.add(1, `field 4 (format name) is "${v(4)}", not Buchungsstapel`)
      if (!/^\d+$/.test(v(5))) p.add(1, `field 5 (format version) is "${v(5)}", not a number`)
      const adviser = Number(v(11))
      if (!/^\d+$/.test(v(11)) || adviser < 1001 || adviser > 9999999) p.add(1, `field 11 (Beraternummer) is "${v(11)}", not 1001-9999999`)
      const client = Number(v(12))
      if (!/^\d+$/.test(v(12)) || client < 1 || client > 99999) p.add(1, `field 12 (Mandantennummer) is "${v(12)}", not 1-99999`)
      if (!isDate(v(13))) p.add(1, `field 13 (WJ-Beginn) is "${v(13)}", not a date YYYYMMDD`)
      if (!/^[4-8]$/.test(v(14))) p.add(1, `field 14 (Sachkontenlänge) is "${v(14)}", not 4-8`)
      else accountLength = Number(v(14))
      if (!isDate(v(15)) || !isDate(v(16))) p.add(1, `fields 15-16 (Datum vom, bis) are "${v(15)}", "${v(16)}", not dates YYYYMMDD`)
      else if (v(15) > v(16)) p.add(1, `the period starts (${v(15)}) after it ends (${v(16)})`)
      else {
        period = { from: iso(v(15)), to: iso(v(16)) }
        if (isDate(v(13))) {
          const next = `${Number(v(13).slice(0, 4)) + 1}${v(13).slice(4)}`
          if (v(15) < v(13) || v(16) >= next) p.add(1, `the period ${v(15)}-${v(16)} is not within the fiscal year starting ${v(13)}`)
        }
      }
      if ((v(17) ?? '').length > DATEV_LENGTHS.Bezeichnung) p.add(1, `field 17 (Bezeichnung) is ${v(17).length} characters, at most 30`)
      if (v(21) !== '' && v(21) !== '0' && v(21) !== '1') p.add(1, `field 21 (Festschreibung) is "${v(21)}", not 0 or 1`)
      if (v(22) !== '' && !/^[A-Z]{3}$/.test(v(22))) p.add(1, `field 22 (WKZ) is "${v(22)}", not a currency code`)
      continue
    }
    if (l.n === 2) {
      columns = new Map(f.map((c, i) => [c.value, i]))
      width = f.length
      for (const c of REQUIRED) if (!columns.has(c)) p.add(2, `no column "${c}"`)
      continue
    }
    rows++
    if (!columns) continue
    if (f.length > width) p.add(l.n, `${f.length} fields, the header names ${width}`)
    const get = (name: string) => {
      const i = columns!.get(name)
      return i === undefined ? undefined : f[i]
    }
    const umsatz = get('Umsatz (ohne Soll/Haben-Kz)')?.value ?? ''
    if (!/^\d{1,10}(,\d{1,2})?$/.test(umsatz))
      p.add(l.n, `Umsatz "${umsatz}" is not an amount without sign, decimal comma, at most 2 decimals`)
    else if (/^0+(,0*)?$/.test(umsatz)) p.add(l.n, 'Umsatz is 0: DATEV takes no booking of 0')
    const sh = get('Soll/Haben-Kennzeichen')?.value
    if (sh !== 'S' && sh !== 'H') p.add(l.n, `Soll/Haben-Kennzeichen "${sh ?? ''}" is not S or H`)
    for (const name of ['Konto', 'Gegenkonto (ohne BU-Schlüssel)']) {
      const k = get(name)?.value ?? ''
      if (!/^\d+$/.test(k)) p.add(l.n, `${name} "${k}" is not an account number`)
      else if (k.length > accountLength + 1)
        p.add(l.n, `${name} ${k} is longer than the account length ${accountLength} (a personal account ${accountLength + 1})`)
    }
    const d = get('Belegdatum')?.value ?? ''
    if (!/^\d{4}$/.test(d)) p.add(l.n, `Belegdatum "${d}" is not DDMM`)
    else if (period) {
      const years = [...new Set([period.from.slice(0, 4), period.to.slice(0, 4)])]
      const day = years
        .map((y) => `${y}-${d.slice(2, 4)}-${d.slice(0, 2)}`)
        .find((x) => !Number.isNaN(Date.parse(`${x}T00:00:00Z`)) && x >= period!.from && x <= period!.to)
      if (!day) p.add(l.n, `Belegdatum ${d} is no day of the period ${period.from} to ${period.to}`)
    }
    const beleg = get('Belegfeld 1')?.value ?? ''
    if (beleg.length > DATEV_LENGTHS['Belegfeld 1']) p.add(l.n, `Belegfeld 1 is ${beleg.length} characters, at most 36`)
    if (!/^[A-Za-z0-9$&%*+\-/]*$/.test(beleg))
      p.add(l.n, `Belegfeld 1 "${beleg}" has a character DATEV does not take there (letters, digits, $ & % * + - /)`)
    const text = get('Buchungstext')?.value ?? ''
    if (text.length > DATEV_LENGTHS.Buchungstext) p.add(l.n, `Buchungstext is ${text.length} characters, at most 60`)
    const wkz = get('WKZ Umsatz')?.value ?? ''
    if (wkz !== '' && !/^[A-Z]{3}$/.test(wkz)) p.add(l.n, `WKZ Umsatz "${wkz}" is not a currency code`)
    const kurs = get('Kurs')?.value ?? ''
    if (kurs !== '' && !/^\d{1,4}(,\d{1,6})?$/.test(kurs)) p.add(l.n, `Kurs "${kurs}" is not a rate of at most 4 digits and 6 decimals`)
    const basis = get('Basis-Umsatz')?.value ?? ''
    if (basis !== '' && !/^\d{1,10}(,\d{1,2})?$/.test(basis)) p.add(l.n, `Basis-Umsatz "${basis}" is not an amount without sign`)
    if (basis !== '' && !/^[A-Z]{3}$/.test(get('WKZ Basis-Umsatz')?.value ?? '')) p.add(l.n, 'Basis-Umsatz without WKZ Basis-Umsatz')
  }
  if (!columns) p.add(0, 'the file has no column names (line 2)')
  return {
    format: 'datev',
    problems: p.list,
    checks: ['header line', 'column names', 'field lengths and values', 'CRLF line ends'],
    rows,
    ...(p.count > p.list.length ? { more: p.count - p.list.length } : {}),
  }
}
