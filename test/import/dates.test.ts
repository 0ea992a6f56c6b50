/**
 * Date-format detection (src/import/dates.ts): the format that reads the most rows wins when it
 * reads all but a tolerated few (one impossible date never refuses a file), and formats that tie
 * and read the rows differently (every day <= 12) are refused, never guessed.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DateDetector,
  dateFormatProblem,
  formatFromFlag,
  looksLikeDate,
  parseDate,
  readsAsDate,
  toleratedMisfits,
} from '../../src/import/dates.js'
import { CONFLICTS, MONTH_NAMES } from '../../src/import/month-names.js'
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

const read = (flag: string, text: string) => parseDate(text, formatFromFlag(flag))
const refusal = (flag: string) => {
  try {
    formatFromFlag(flag)
  } catch (e) {
    return (e as Error).message
  }
  return 'accepted'
}

describe('--date-format in any layout (letters or strftime)', () => {
  it.each([
    // A year in the middle, or first with the day before the month.
    ['DD/YYYY/MM', '24/2022/03', '2022-03-24'],
    ['%d/%Y/%m', '24/2022/03', '2022-03-24'],
    ['YYYY/DD/MM', '2022/24/03', '2022-03-24'],
    ['MM-YYYY-DD', '03-2022-24', '2022-03-24'],
    ['YY.DD.MM', '22.24.03', '2022-03-24'],
    // No separators: each number of its own width.
    ['YYYYMMDD', '20220324', '2022-03-24'],
    ['%Y%m%d', '20220324', '2022-03-24'],
    ['DDMMYYYY', '24032022', '2022-03-24'],
    ['YYMMDD', '220324', '2022-03-24'],
    ['%d%m%y', '240322', '2022-03-24'],
    // A month's name, abbreviated or whole, and a day of one or two digits.
    ['DD-MMM-YYYY', '24-Mar-2022', '2022-03-24'],
    ['D-MMM-YYYY', '5-Mar-2022', '2022-03-05'],
    ['%d-%b-%Y', '05-JAN-2024', '2024-01-05'],
    ['%d-%b-%y', '05-Jan-24', '2024-01-05'],
    ['DD MMMM YYYY', '05 January 2024', '2024-01-05'],
    ['%e %B %Y', '5 January 2024', '2024-01-05'],
    ['MMM D, YYYY', 'Jan 5, 2024', '2024-01-05'],
    ['%b %e, %Y', 'Jan  5, 2024', '2024-01-05'],
    ['%B %-d %Y', 'December 31 2024', '2024-12-31'],
    ['DDMMMYYYY', '05JAN2024', '2024-01-05'],
    ['YYYY-MMM-DD', '2024-Feb-29', '2024-02-29'],
    // strftime's shorthands, words as written, and a time after the date, read past.
    ['%F', '2024-03-05', '2024-03-05'],
    ['%D', '03/05/24', '2024-03-05'],
    ['%d de %B de %Y', '5 de marzo de 2024', '2024-03-05'],
    ['%Y m. %B %d d.', '2024 m. kovo 5 d.', '2024-03-05'],
    ['%Y-%m-%dT%H:%M:%S', '2024-03-05T10:22:33', '2024-03-05'],
    ['%Y%m%d%H%M%S', '20240305102233', '2024-03-05'],
    ['DD-MMM-YYYY', '05-Jan-2024 10:22', '2024-01-05'],
  ])('%s reads %s as %s', (flag, text, iso) => {
    expect(read(flag, text)).toBe(iso)
  })

  it('a separator of the layout reads any run of spaces and punctuation; a number beside another needs one', () => {
    expect(read('DD-MMM-YYYY', '05 Jan 2024')).toBe('2024-01-05')
    expect(read('DD-MMM-YYYY', '5. Jan. 2024')).toBe('2024-01-05')
    expect(read('DD/YYYY/MM', '24.2022.3')).toBe('2022-03-24')
    expect(read('DD/YYYY/MM', '242022/03')).toBeNull()
  })

  it('reads no date that is none: a day or month out of range, 31 February, an unknown month, a three-digit year', () => {
    expect(read('DD/YYYY/MM', '24/2022/13')).toBeNull()
    expect(read('DD/YYYY/MM', '31/2023/02')).toBeNull()
    expect(read('DD/YYYY/MM', '29/2024/02')).toBe('2024-02-29')
    expect(read('DD-MMM-YYYY', '05-Foo-2024')).toBeNull()
    expect(read('DD-MMM-YYYY', '05-Jan-202')).toBeNull()
    expect(read('YYYYMMDD', '2022032')).toBeNull()
    expect(read('YYMMDD', '2203245')).toBeNull()
  })

  it('the usual orders are read as detection reads them (any separator, a year of 2 or 4 digits), however written', () => {
    expect(formatFromFlag('%d.%m.%Y')).toEqual({ name: '%d.%m.%Y', order: 'dmy' })
    expect(formatFromFlag('dd/mm/yyyy')).toEqual({ name: 'DD/MM/YYYY', order: 'dmy' })
    expect(formatFromFlag('YYYYMMDD')).toEqual({ name: 'YYYYMMDD', order: 'ymd' })
    expect(formatFromFlag('%m/%d/%y').order).toBe('mdy')
    expect(read('%d.%m.%Y', '5/3/24')).toBe('2024-03-05')
  })

  it.each([
    ['DD/MM', 'a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022'],
    ['YYYY', 'a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022'],
    ['', 'a date needs a day, a month and a year; for example DD/MM/YYYY reads 24/03/2022'],
    ['%d/%m', 'a date needs a day, a month and a year; for example %d/%m/%Y reads 24/03/2022'],
    ['DD/MM/DD', 'the day is written twice (DD and DD); for example DD/MM/YYYY reads 24/03/2022'],
    ['MM/MMM/YYYY', 'the month is written twice (MM and MMM); for example DD/MM/YYYY reads 24/03/2022'],
    ['%Y-%m-%d %y', 'the year is written twice (%Y and %y); for example %d/%m/%Y reads 24/03/2022'],
    [
      'QQ',
      '"QQ" is no part of a date (D or DD a day, M or MM a month, MMM or MMMM its name, YY or YYYY a year; a time after the date needs no letters); for example DD/MM/YYYY reads 24/03/2022',
    ],
    [
      'DD/MM/YYYYY',
      '"YYYYY" is no part of a date (D or DD a day, M or MM a month, MMM or MMMM its name, YY or YYYY a year; a time after the date needs no letters); for example DD/MM/YYYY reads 24/03/2022',
    ],
    [
      'YYYY-MM-DD HH:mm',
      '"HH" is no part of a date (D or DD a day, M or MM a month, MMM or MMMM its name, YY or YYYY a year; a time after the date needs no letters); for example DD/MM/YYYY reads 24/03/2022',
    ],
    [
      '%d/%q/%Y',
      '%q is no date code (%d or %e a day, %m a month, %b or %B its name, %y or %Y a year; a time %H:%M:%S after the date); for example %d/%m/%Y reads 24/03/2022',
    ],
    ['DMYYYY', 'D is 1 or 2 digits, so the number beside it needs a separator (or write DD); for example DD/MM/YYYY reads 24/03/2022'],
    ['%Y%m%e', '%e is 1 or 2 digits, so the number beside it needs a separator (or write %d); for example %d/%m/%Y reads 24/03/2022'],
    ['%H:%M %d/%m/%Y', 'the time (%H) goes after the day, the month and the year; for example %d/%m/%Y reads 24/03/2022'],
  ])('refuses %j: %s', (flag, reason) => {
    expect(refusal(flag)).toBe(`--date-format "${flag}": ${reason}`)
    expect(dateFormatProblem(flag)).toBe(`"${flag}": ${reason}`)
  })
})

describe('month names in every mapped language, case- and accent-insensitive', () => {
  it('no word names two months across the languages', () => {
    expect(CONFLICTS).toEqual([])
  })

  it.each([
    ['en', ['5 Jan 2024', '5 sept 2024', '5 SEPTEMBER 2024', '5 may 2024'], ['01', '09', '09', '05']],
    ['de', ['5 Mär 2024', '5 MÄRZ 2024', '5 mar 2024', '5 Mrz 2024', '5 Jänner 2024', '5 Dez 2024'], ['03', '03', '03', '03', '01', '12']],
    [
      'fr',
      ['5 janv. 2024', '5 févr. 2024', '5 FEVR 2024', '5 août 2024', '5 aout 2024', '5 déc. 2024'],
      ['01', '02', '02', '08', '08', '12'],
    ],
    ['es', ['5 ene 2024', '5 marzo 2024', '5 setiembre 2024', '5 dic 2024'], ['01', '03', '09', '12']],
    ['nl', ['5 mrt 2024', '5 mei 2024', '5 okt 2024', '5 maart 2024'], ['03', '05', '10', '03']],
    ['it', ['5 gen 2024', '5 giugno 2024', '5 lug 2024', '5 dicembre 2024'], ['01', '06', '07', '12']],
    ['pt', ['5 fev 2024', '5 março 2024', '5 out 2024', '5 dez 2024'], ['02', '03', '10', '12']],
    [
      'pl',
      ['5 sty 2024', '5 marca 2024', '5 maj 2024', '5 października 2024', '5 paź 2024', '5 grudzień 2024'],
      ['01', '03', '05', '10', '10', '12'],
    ],
    [
      'cs',
      ['5 března 2024', '5 čvn 2024', '5 čvc 2024', '5 července 2024', '5 září 2024', '5 PROSINCE 2024'],
      ['03', '06', '07', '07', '09', '12'],
    ],
    ['lt', ['5 kovo 2024', '5 saus. 2024', '5 gegužės 2024', '5 gruodžio 2024'], ['03', '01', '05', '12']],
    ['lv', ['5 martā 2024', '5 marts 2024', '5 jūn. 2024', '5 decembrī 2024'], ['03', '03', '06', '12']],
    ['et', ['5 märts 2024', '5 veebr 2024', '5 dets 2024', '5 juuni 2024'], ['03', '02', '12', '06']],
    ['no', ['5 mai 2024', '5 des 2024', '5 okt 2024', '5 desember 2024'], ['05', '12', '10', '12']],
    ['da', ['5 maj 2024', '5 marts 2024', '5 dec 2024', '5 oktober 2024'], ['05', '03', '12', '10']],
    ['sv', ['5 maj 2024', '5 augusti 2024', '5 mars 2024', '5 okt 2024'], ['05', '08', '03', '10']],
    ['fi', ['5 tammikuuta 2024', '5 maalis 2024', '5 kesäk 2024', '5 joulukuu 2024'], ['01', '03', '06', '12']],
    [
      'ru',
      ['5 мар 2024', '5 марта 2024', '5 мая 2024', '5 МАЙ 2024', '5 сент 2024', '5 декабря 2024'],
      ['03', '03', '05', '05', '09', '12'],
    ],
    ['uk', ['5 березня 2024', '5 бер 2024', '5 травня 2024', '5 лист 2024', '5 грудня 2024'], ['03', '03', '05', '11', '12']],
  ])('%s', (_, texts, months) => {
    expect(texts.map((t) => read('D MMM YYYY', t))).toEqual(months.map((m) => `2024-${m}-05`))
  })
})

describe('detection learns dates with a month name', () => {
  it.each([
    [['05-Jan-2024', '06-Jan-2024', '17-Feb-2024'], 'DD-MMM-YYYY', ['2024-01-05', '2024-01-06', '2024-02-17']],
    [['5 janv. 2024', '12 févr. 2024'], 'D MMM YYYY', ['2024-01-05', '2024-02-12']],
    [['Jan 5, 2024', 'Feb 15, 2024'], 'MMM D, YYYY', ['2024-01-05', '2024-02-15']],
    [['January 5, 2024', 'February 15, 2024'], 'MMMM D, YYYY', ['2024-01-05', '2024-02-15']],
    [['5. März 2024', '17. April 2024'], 'D. MMMM YYYY', ['2024-03-05', '2024-04-17']],
    [['5 марта 2024', '6 апреля 2024'], 'D MMMM YYYY', ['2024-03-05', '2024-04-06']],
    [['05-Jan-24 10:22', '06-Jan-24 11:00'], 'DD-MMM-YY', ['2024-01-05', '2024-01-06']],
    [['2024-Jan-05'], 'YYYY-MMM-DD', ['2024-01-05']],
  ])('%j: %s', (texts, name, isos) => {
    const r = detect(...texts).decide()
    expect(r).toMatchObject({ ok: true, format: { name }, misfits: 0 })
    const format = r.ok ? r.format : formatFromFlag('DD.MM.YYYY')
    expect(texts.map((t) => parseDate(t, format))).toEqual(isos)
    // The name it is given (and saved with --save-mapping) reads the file again.
    expect(texts.map((t) => read(name, t))).toEqual(isos)
  })

  it('keeps its rule for numbers: a time after the date, and never DD/MM against MM/DD by a guess', () => {
    expect(detect('05.03.2024 10:22', '13.03.2024 11:00').decide()).toMatchObject({ ok: true, format: { name: 'DD.MM.YYYY' } })
    expect(detect('05.03.2024 10:22', '06.03.2024 11:00').decide()).toMatchObject({ ok: false, reason: 'ambiguous' })
  })

  it('a month name nobody maps is no date of a known format', () => {
    expect(detect('05-Oca-2024', '06-Şub-2024').decide()).toMatchObject({ ok: false, reason: 'unknown' })
  })
})

describe('what looks like a date (a transaction row) and what does not (a line skipped)', () => {
  it('digit groups and month names between numbers; not a footer, a balance or a word with numbers', () => {
    for (const text of ['2024-03-05', '05.03.2024 10:22', '20240305', '05-Jan-2024', 'Jan 5, 2024', '5 марта 2024', '32-Jan-2024'])
      expect([text, looksLikeDate(text)]).toEqual([text, true])
    for (const text of ['', 'Saldo', 'Balance 1596.50', 'Konto 12 3456', 'Total 12 2024', '5 Foo 2024', '24/2022/03'])
      expect([text, looksLikeDate(text)]).toEqual([text, false])
  })

  it('with a layout the user gave: its own shape, so a row whose date does not read is rejected, not skipped', () => {
    const mid = formatFromFlag('DD/YYYY/MM')
    expect([looksLikeDate('24/2022/03', mid), looksLikeDate('24/2022/13', mid), looksLikeDate('Saldo', mid)]).toEqual([true, true, false])
    expect(looksLikeDate('05-Oca-2024', formatFromFlag('DD-MMM-YYYY'))).toBe(true)
    expect(looksLikeDate('05-Oca-2024')).toBe(false)
  })

  it('a column of dates is one by its values, with month names too', () => {
    expect(['05-Jan-2024', 'Jan 5, 2024', '2024-03-05'].map(readsAsDate)).toEqual([true, true, true])
    expect(['32-Jan-2024', '2024-13-45', 'Coffee 5 2024'].map(readsAsDate)).toEqual([false, false, false])
  })
})

describe('a date written in any supported layout reads back to itself (property)', () => {
  type Spec = {
    order: Array<'d' | 'm' | 'y'>
    month: 'number' | 'short' | 'full'
    year: 2 | 4
    pad: boolean
    seps: [string, string]
    strftime: boolean
    language: string
  }
  const orders: Spec['order'][] = [
    ['d', 'm', 'y'],
    ['m', 'd', 'y'],
    ['y', 'm', 'd'],
    ['y', 'd', 'm'],
    ['d', 'y', 'm'],
    ['m', 'y', 'd'],
  ]
  const spec = fc
    .record({
      order: fc.constantFrom(...orders),
      month: fc.constantFrom('number', 'short', 'full'),
      year: fc.constantFrom(2, 4),
      pad: fc.boolean(),
      seps: fc.tuple(fc.constantFrom('/', '-', '.', ' ', ', ', '. ', ''), fc.constantFrom('/', '-', '.', ' ', ', ', '. ', '')),
      strftime: fc.boolean(),
      language: fc.constantFrom(...Object.keys(MONTH_NAMES)),
    })
    // Two numbers side by side are of their full width (DDMMYYYY).
    .map((s): Spec => (s.seps.includes('') ? { ...s, pad: true } : s) as Spec)
  const date = (twoDigitYear: boolean) =>
    fc
      .record({
        y: twoDigitYear ? fc.integer({ min: 1970, max: 2069 }) : fc.integer({ min: 1900, max: 2200 }),
        m: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 31 }),
      })
      .filter(({ y, m, d }) => d <= new Date(Date.UTC(y, m, 0)).getUTCDate())
  const two = (n: number) => String(n).padStart(2, '0')

  function flagOf(s: Spec): string {
    const part = (p: 'd' | 'm' | 'y') => {
      if (p === 'y') return s.strftime ? (s.year === 2 ? '%y' : '%Y') : s.year === 2 ? 'YY' : 'YYYY'
      if (p === 'm' && s.month !== 'number') return s.strftime ? (s.month === 'full' ? '%B' : '%b') : s.month === 'full' ? 'MMMM' : 'MMM'
      if (s.strftime) return s.pad ? `%${p}` : p === 'd' ? '%e' : '%-m'
      return (p === 'd' ? 'D' : 'M').repeat(s.pad ? 2 : 1)
    }
    return `${part(s.order[0])}${s.seps[0]}${part(s.order[1])}${s.seps[1]}${part(s.order[2])}`
  }

  function write(s: Spec, { y, m, d }: { y: number; m: number; d: number }): string {
    const names = MONTH_NAMES[s.language]
    const part = (p: 'd' | 'm' | 'y') => {
      if (p === 'y') return s.year === 2 ? two(y % 100) : String(y)
      if (p === 'm' && s.month !== 'number') return (s.month === 'full' ? names.full : names.short)[m - 1]
      const n = p === 'd' ? d : m
      return s.pad ? two(n) : String(n)
    }
    return `${part(s.order[0])}${s.seps[0]}${part(s.order[1])}${s.seps[1]}${part(s.order[2])}`
  }

  it('for every arrangement, month form, language, year width and separator, letters or strftime', () => {
    fc.assert(
      fc.property(
        spec.chain((s) => fc.tuple(fc.constant(s), date(s.year === 2))),
        ([s, day]) => {
          const text = write(s, day)
          expect([flagOf(s), text, read(flagOf(s), text)]).toEqual([flagOf(s), text, `${day.y}-${two(day.m)}-${two(day.d)}`])
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('dates with a month name are detected, and the name detection gives them reads them again', () => {
    const arrangements: Spec['order'][] = [
      ['d', 'm', 'y'],
      ['m', 'd', 'y'],
    ]
    fc.assert(
      fc.property(
        spec.map((s) => ({ ...s, month: s.month === 'number' ? 'short' : s.month, year: s.order[0] === 'y' ? 4 : s.year }) as Spec),
        fc.constantFrom(...arrangements),
        fc.array(date(true), { minLength: 1, maxLength: 6 }),
        (s0, order, days) => {
          // Between the day and the year a separator is needed; "Jan 5 2024" and "5 Jan 2024" are read by their name's place.
          const s: Spec = { ...s0, order, seps: order[0] === 'm' ? [s0.seps[0], s0.seps[1] || ' '] : s0.seps }
          const texts = days.map((day) => write(s, day))
          const r = detect(...texts).decide()
          expect([texts, r.ok]).toEqual([texts, true])
          if (!r.ok) return
          const isos = days.map((day) => `${day.y}-${two(day.m)}-${two(day.d)}`)
          expect(texts.map((t) => parseDate(t, r.format))).toEqual(isos)
          expect([r.format.name, texts.map((t) => read(r.format.name, t))]).toEqual([r.format.name, isos])
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe('a hostile date cell', () => {
  const work = (text: string) => {
    const d = new DateDetector()
    d.add(text)
    d.decide()
    return [looksLikeDate(text), readsAsDate(text), read('DD-MMM-YYYY', text), read('MMM D, YYYY', text), read('%Y%m%d', text)]
  }
  const none = [expect.any(Boolean), false, null, null, null]
  // What each cell reads as; that its cost grows in proportion to its length: test/timing/date-cells-growth.test.ts.
  it.each([
    ['a long month name', (n: number) => `05-${'a'.repeat(n)}-2024`, none],
    ['a long word first', (n: number) => `${'é'.repeat(n)} 5, 2024`, none],
    ['long digits', (n: number) => `${'1'.repeat(n)}-Jan-2024`, none],
    // Any run of spaces and punctuation is a separator: a date still.
    ['long separators', (n: number) => `05${' .'.repeat(n)}Jan 2024`, [true, true, '2024-01-05', null, null]],
  ])('%s: read the same at any length', (_, make, reads) => {
    for (const n of [1_000, 100_000]) expect(work(make(n))).toEqual(reads)
  })
})
