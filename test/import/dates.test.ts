/**
 * Date-format detection (src/import/dates.ts): the format that reads the most rows wins when it
 * reads all but a tolerated few (one impossible date never refuses a file), and formats that tie
 * and read the rows differently (every day <= 12) are refused, never guessed.
 */
import { describe, expect, it } from 'vitest'
import { DateDetector, formatFromFlag, parseDate, toleratedMisfits } from '../../src/import/dates.js'
import { mulberry32 } from '../../src/kernel/random.js'

const detect = (...dates: string[]) => {
  const d = new DateDetector()
  for (const text of dates) d.add(text)
  return d
}

describe('DateDetector', () => {
  it('decides YYYY-MM-DD despite one impossible date among valid ISO dates, and counts the misfit', () => {
    const d = detect('2026-01-02', '2026-01-03', '2026-13-45', '2026-01-05')
    expect(d.decide()).toMatchObject({ ok: true, format: { name: 'YYYY-MM-DD' }, misfits: 1 })
    expect(d.settled).toBe(true)
  })

  it('still refuses to guess when the valid rows are ambiguous, also with an impossible date among them', () => {
    const d = detect('01.02.2026', '03.04.2026', '2026-13-45', '05.06.2026')
    expect(d.decide()).toMatchObject({ ok: false, reason: 'ambiguous' })
    expect(d.settled).toBe(false)
    expect(detect('01.02.2026', '03.04.2026').decide()).toMatchObject({ ok: false, reason: 'ambiguous' })
  })

  it('one day over 12 decides DD.MM against MM.DD, wherever it is in the file', () => {
    expect(detect('13.01.2026', '01.02.2026', '03.04.2026').decide()).toMatchObject({
      ok: true,
      format: { name: 'DD.MM.YYYY' },
      misfits: 0,
    })
    // Named as the file writes its dates.
    expect(detect('01.02.2026', '03.04.2026', '01.25.2026').decide()).toMatchObject({
      ok: true,
      format: { name: 'MM.DD.YYYY', order: 'mdy' },
      misfits: 0,
    })
  })

  it('dates every format reads the same (10.10.2017) are no ambiguity', () => {
    expect(detect('10.10.2017', '11.11.2017').decide()).toMatchObject({ ok: true, misfits: 0 })
  })

  it('refuses a file where more than one date in ten fits no format, naming an example and the flag', () => {
    const dates = ['2026-01-02', '2026-01-03', '2026-13-45', '2026-02-30', '2026-01-05', '2026-01-06']
    const r = detect(...dates).decide()
    expect(r).toMatchObject({ ok: false, reason: 'unknown', sample: '2026-13-45' })
    expect(r.ok ? '' : r.message).toBe(
      '2 of 6 dates do not fit YYYY-MM-DD, the format most of them fit (for example "2026-13-45"), more than the one in ten tolerated: give --date-format',
    )
    expect(detect('31/31/2026', '45/45/2026').decide()).toMatchObject({
      ok: false,
      reason: 'unknown',
      message: 'the dates fit no known format (for example "31/31/2026"): give --date-format',
    })
  })

  it('tolerates one row in ten, and at least one', () => {
    expect([1, 2, 9, 10, 19, 20, 1000].map(toleratedMisfits)).toEqual([1, 1, 1, 1, 1, 2, 100])
    const twenty = Array.from({ length: 18 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`)
    expect(detect(...twenty, '2026-13-01', '2026-00-01').decide()).toMatchObject({ ok: true, misfits: 2 })
  })
})

describe('a two-digit year first (YY/MM/DD)', () => {
  it('--date-format YY/MM/DD reads 13/08/12 as 2013-08-12; YYYY-MM-DD does not read a two-digit year', () => {
    expect(formatFromFlag('YY/MM/DD')).toEqual({ name: 'YY/MM/DD', order: 'yymd' })
    expect(formatFromFlag('yyyy-mm-dd').order).toBe('ymd')
    expect(parseDate('13/08/12', 'yymd')).toBe('2013-08-12')
    expect(parseDate(' 13/08/12', 'yymd')).toBe('2013-08-12')
    expect(parseDate('13/08/12', 'ymd')).toBeNull()
    expect(parseDate('2013/08/12', 'yymd')).toBeNull()
    expect(parseDate('13/02/30', 'yymd')).toBeNull()
  })

  it('is one of the formats a file may be: 13/08/12 is DD/MM/YY or YY/MM/DD, refused; evidence decides', () => {
    const both = detect('13/08/12', '13/09/02').decide()
    expect(both).toMatchObject({ ok: false, reason: 'ambiguous', candidates: [{ order: 'dmy' }, { order: 'yymd' }] })
    expect(both.ok ? '' : both.message).toBe(
      'the dates could be DD/MM/YY or YY/MM/DD (every date reads both ways, as different dates): give --date-format DD/MM/YY or --date-format YY/MM/DD',
    )
    // A day 31 in February as YY/MM/DD (13/02/31) leaves DD/MM/YY; a first group over 31 leaves YY/MM/DD.
    expect(detect('13/08/12', '13/02/31').decide()).toMatchObject({ ok: true, format: { order: 'dmy' } })
    expect(detect('13/08/12', '45/02/03').decide()).toMatchObject({ ok: true, format: { order: 'yymd' } })
    // Four-digit years are not read as YY/MM/DD: nothing changes for them.
    expect(detect('13.08.2012', '14.08.2012').decide()).toMatchObject({ ok: true, format: { order: 'dmy' } })
    expect(detect('2012-08-13').decide()).toMatchObject({ ok: true, format: { order: 'ymd' } })
  })
})

describe('parseDate of plain texts (digit groups and separators only)', () => {
  it('answers as the regular expressions do for the same text with a space before it, and gives an ISO text back as it is', () => {
    expect(parseDate('2024-03-05', 'ymd')).toBe('2024-03-05')
    expect(parseDate('2024/3/5', 'ymd')).toBe('2024-03-05')
    expect(parseDate('05.03.24', 'dmy')).toBe('2024-03-05')
    expect(parseDate('3/5/1999', 'mdy')).toBe('1999-03-05')
    expect(parseDate('2024-02-30', 'ymd')).toBeNull()
    expect(parseDate('05.03.024', 'dmy')).toBeNull()
    expect(parseDate('2024-03-05 10:30', 'ymd')).toBe('2024-03-05')
    const rnd = mulberry32(2611)
    const group = (max: number) => String(Math.floor(rnd() * 10 ** (1 + Math.floor(rnd() * max)))).padStart(rnd() < 0.3 ? 2 : 1, '0')
    const sep = () => './-: '[Math.floor(rnd() * 5)]
    let dates = 0
    for (let k = 0; k < 30_000; k++) {
      const text =
        rnd() < 0.5 ? `${group(4)}${sep()}${group(2)}${sep()}${group(4)}` : `${2000 + Math.floor(rnd() * 40)}-${group(2)}-${group(2)}`
      for (const order of ['ymd', 'dmy', 'mdy', 'yymd'] as const) {
        const plain = parseDate(text, order)
        expect([text, order, plain]).toEqual([text, order, parseDate(` ${text}`, order)])
        if (plain) dates++
      }
    }
    expect(dates).toBeGreaterThan(5_000)
  })
})
