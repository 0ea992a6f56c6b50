/**
 * Property tests (fast-check): whatever the bytes, a statement parser returns statements or throws
 * its own StatementParseError (an upload, StatementFileError), never a TypeError, a RangeError
 * (stack overflow) or a library's error; and what it returns holds whole minor units and real dates.
 * Inputs: random bytes, token soups of each format, and valid files cut, spliced and repeated.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseUpload, StatementFileError } from '../../../src/domain/statements/parse.js'
import { PARSERS, parseStatement } from '../../../src/import/statements/index.js'
import { StatementParseError, type ParseResult, type StatementFormat } from '../../../src/import/statements/types.js'
import { bankFile, listBankFiles } from '../../helpers/bank-files.js'
import { HOSTILE } from './hostile.js'

const RUNS = Number(process.env.FINCTL_FUZZ_RUNS) || 150

const TOKENS: Record<Exclude<StatementFormat, 'csv' | 'qfx'>, string[]> = {
  ofx: [
    'OFXHEADER:100\n',
    '<OFX>',
    '</OFX>',
    '<STMTRS>',
    '</STMTRS>',
    '<CCSTMTRS>',
    '<CURDEF>',
    'EUR',
    'XYZ',
    '<BANKACCTFROM>',
    '<ACCTID>',
    '<BANKTRANLIST>',
    '</BANKTRANLIST>',
    '<STMTTRN>',
    '</STMTTRN>',
    '<DTPOSTED>',
    '20240105',
    '2024',
    '<TRNAMT>',
    '-1.00',
    '1,5',
    '99999999999999999999',
    '<NAME>',
    '<MEMO>',
    '<LEDGERBAL>',
    '<BALAMT>',
    '<STATUS>',
    '<CODE>',
    '2000',
    '<INVSTMTRS>',
    '&amp;',
    '&#x110000;',
    '&#0;',
    '&#65;',
    '<![CDATA[',
    ']]>',
    '<!--',
    '-->',
    '<?',
    '?>',
    '<EMPTY/>',
    '<',
    '>',
    '</',
    '/',
    '\n',
    ' ',
    'x',
  ],
  camt053: [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">',
    '</Document>',
    '<BkToCstmrStmt>',
    '</BkToCstmrStmt>',
    '<Stmt>',
    '</Stmt>',
    '<Ntry>',
    '</Ntry>',
    '<Amt Ccy="EUR">1.00</Amt>',
    '<Amt>',
    '</Amt>',
    '<CdtDbtInd>CRDT</CdtDbtInd>',
    '<CdtDbtInd>DBIT</CdtDbtInd>',
    '<BookgDt><Dt>2024-01-05</Dt></BookgDt>',
    '<ValDt><DtTm>2024-01-05T10:00:00</DtTm></ValDt>',
    '<Sts>BOOK</Sts>',
    '<Sts><Cd>PDNG</Cd></Sts>',
    '<NtryDtls><TxDtls><Amt Ccy="EUR">0.50</Amt></TxDtls></NtryDtls>',
    '<NtryDtls>',
    '<TxDtls>',
    '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>',
    '<Acct><Id><IBAN>DE89</IBAN></Id><Ccy>EUR</Ccy></Acct>',
    '<RmtInf><Ustrd>x</Ustrd></RmtInf>',
    '<!DOCTYPE x [<!ENTITY a "aaaa">]>',
    '&a;',
    '&amp;',
    '<![CDATA[x]]>',
    '<!-- c -->',
    '<a:b xmlns:a="x">',
    '</a:b>',
    '<',
    '>',
    '"',
    '\n',
    'x',
  ],
  // A notification is a statement's entries under another root: the same tokens, its own root.
  get camt054() {
    return this.camt053.map((t) =>
      t.replace('camt.053', 'camt.054').replace('BkToCstmrStmt', 'BkToCstmrDbtCdtNtfctn').replace('Stmt>', 'Ntfctn>'),
    )
  },
  mt940: [
    '{1:F01BANK}',
    '{2:O940}',
    '{4:\n',
    '-}',
    ':20:REF\n',
    ':25:DE89370400440532013000\n',
    ':28C:1/1\n',
    ':60F:C240101EUR0,00\n',
    ':60M:D240101EUR1,\n',
    ':61:2401050105C1,00NTRFREF//B1\n',
    ':61:240105D1,00NMSC\n',
    ':61:2412310101RC99999999999999,99NTRF\n',
    ':86:166?20text?32name\n',
    ':86:free text\n',
    ':62F:C240131EUR1,00\n',
    ':62M:D240131USD0,\n',
    '-\n',
    '?',
    '\r',
    '\n',
    ' ',
    'x',
  ],
  qif: [
    '!Type:Bank\n',
    '!Type:CCard\n',
    '!Type:Invst\n',
    '!Type:Cat\n',
    '!Account\n',
    '!Option:AutoSwitch\n',
    'NChecking\n',
    'D01/05/2024\n',
    "D1/ 5'24\n",
    'D2024-13-45\n',
    'D31.12.2024\n',
    'T-1,234.56\n',
    'T1.234,56\n',
    'U-1.00\n',
    'Pshop\n',
    'POpening Balance\n',
    'L[Savings]\n',
    'LGroceries\n',
    'Mmemo\n',
    'S[Other]\n',
    'Ememo\n',
    '$-0.50\n',
    '^\n',
    '\n',
    ' ',
    'x',
  ],
}

/** The valid small file of each format the mutations start from. */
const seeds: Record<string, string> = {
  ofx: HOSTILE.find((h) => h.name === 'ofx-sgml: many tiny records')!.make(3),
  ofxXml: HOSTILE.find((h) => h.name === 'ofx-xml: many tiny records')!.make(3),
  camt053: HOSTILE.find((h) => h.name === 'camt053: many tiny records')!.make(3),
  camt054: readFileSync(join(import.meta.dirname, '../../fixtures/bank-files/camt054-credit-and-debit-notification.xml'), 'latin1'),
  mt940: HOSTILE.find((h) => h.name === 'mt940: many tiny records')!.make(3),
  qif: HOSTILE.find((h) => h.name === 'qif: many tiny records')!.make(3),
  csv: HOSTILE.find((h) => h.name === 'csv: many tiny records')!.make(3),
}

/** The corpus's files of a folder (none when it is missing), as Latin-1 text: every byte a character. */
const corpus = (folder: string) => listBankFiles(folder).map((name) => readFileSync(bankFile(folder, name), 'latin1'))

const encode = (text: string) => new TextEncoder().encode(text)

const soup = (tokens: string[]) =>
  fc
    .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...tokens) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), {
      maxLength: 200,
    })
    .map((parts) => parts.join(''))

/** A valid file cut, spliced with itself, a piece repeated, or a token dropped in. */
const mutated = (seed: string, tokens: string[]) =>
  fc
    .array(
      fc.tuple(fc.nat(seed.length), fc.nat(seed.length), fc.constantFrom('cut', 'drop', 'repeat', 'insert'), fc.constantFrom(...tokens)),
      { minLength: 1, maxLength: 6 },
    )
    .map((edits) => {
      let text = seed
      for (const [a, b, how, token] of edits) {
        const [from, to] = [Math.min(a, b) % (text.length + 1), Math.max(a, b) % (text.length + 1)]
        if (how === 'cut') text = text.slice(0, to)
        else if (how === 'drop') text = text.slice(0, from) + text.slice(to)
        else if (how === 'repeat') text = text.slice(0, to) + text.slice(from, to).repeat(3) + text.slice(to)
        else text = text.slice(0, from) + token + text.slice(from)
      }
      return text
    })

/** Elements nested thousands deep (distinct names: OFX closes an element when one of its name opens) in a valid file. */
const nested = (seed: string, open: (i: number) => string, close: (i: number) => string) =>
  fc.tuple(fc.nat(seed.length), fc.integer({ min: 90, max: 8000 }), fc.boolean()).map(([at, depth, closed]) => {
    const opens = Array.from({ length: depth }, (_, i) => open(i)).join('')
    const closes = closed ? Array.from({ length: depth }, (_, i) => close(depth - 1 - i)).join('') : ''
    return seed.slice(0, at) + opens + closes + seed.slice(at)
  })

const NESTING: Partial<Record<StatementFormat, [(i: number) => string, (i: number) => string]>> = {
  ofx: [(i) => `<N${i}>`, (i) => `</N${i}>`],
  camt053: [() => '<X>', () => '</X>'],
  camt054: [() => '<X>', () => '</X>'],
}

/** Bytes that are not all valid text: random, or a text with stray high bytes. */
const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  fc.uint8Array({ maxLength: 60 }).map((b) => b.map((x) => x | 0x80)),
)

function checkResult(r: ParseResult): void {
  for (const s of r.statements) {
    for (const t of s.transactions) {
      expect(Number.isSafeInteger(t.amountMinor)).toBe(true)
      expect(t.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(Number.isNaN(Date.parse(t.date))).toBe(false)
    }
    for (const b of [s.openingBalance, s.closingBalance]) if (b !== undefined) expect(Number.isSafeInteger(b)).toBe(true)
  }
}

function parsesOrRefuses(bytes: Uint8Array, format: StatementFormat | undefined, defaultCurrency: string | undefined): void {
  let r: ParseResult
  try {
    r = parseStatement(bytes, { format, fileName: 'upload.bin', defaultCurrency })
  } catch (e) {
    if (!(e instanceof StatementParseError)) throw e
    return
  }
  checkResult(r)
}

const FORMATS: Array<[Exclude<StatementFormat, 'csv' | 'qfx'>, string[]]> = [
  ['ofx', [seeds.ofx, seeds.ofxXml, ...corpus('ofx')]],
  ['camt053', [seeds.camt053, ...corpus('camt053')]],
  ['camt054', [seeds.camt054]],
  ['mt940', [seeds.mt940, ...corpus('mt940')]],
  ['qif', [seeds.qif, ...corpus('qif')]],
]

it('fuzzes every statement parser there is', () => {
  const parsed = PARSERS.map((p) => p.format).filter((f) => f !== 'qfx')
  expect(FORMATS.map(([f]) => f).sort()).toEqual(parsed.sort())
})

describe.each(FORMATS)('%s never throws anything but StatementParseError', (format, formatSeeds) => {
  const tokens = TOKENS[format]
  const currency = fc.option(fc.constantFrom('EUR', 'JPY', 'BHD'), { nil: undefined })

  it('on random bytes', () => {
    fc.assert(
      fc.property(rawBytes, currency, (b, ccy) => parsesOrRefuses(b, format, ccy)),
      { numRuns: RUNS },
    )
  })

  it('on a soup of its tokens', () => {
    fc.assert(
      fc.property(soup(tokens), currency, (text, ccy) => parsesOrRefuses(encode(text), format, ccy)),
      { numRuns: RUNS },
    )
  })

  it.runIf(NESTING[format])('on elements nested thousands deep', () => {
    const [open, close] = NESTING[format]!
    const seed = fc.constantFrom(...formatSeeds).chain((s) => nested(s, open, close))
    fc.assert(
      fc.property(seed, (text) => parsesOrRefuses(encode(text), format, 'EUR')),
      { numRuns: Math.ceil(RUNS / 5) },
    )
  })

  it('on a valid file cut, spliced and repeated (the format given, and detected)', () => {
    const seed = fc.constantFrom(...formatSeeds).chain((s) => mutated(s, tokens))
    fc.assert(
      fc.property(seed, currency, fc.boolean(), (text, ccy, given) => parsesOrRefuses(encode(text), given ? format : undefined, ccy)),
      { numRuns: RUNS },
    )
  })
})

describe('an upload never fails with anything but StatementFileError', () => {
  const uploads = (format: Exclude<StatementFormat, 'qfx'>, text: fc.Arbitrary<string>) =>
    fc.assert(
      fc.asyncProperty(text, async (t) => {
        try {
          await parseUpload(encode(t), { fileName: `upload.${format}`, format, currency: 'EUR', exponent: 2 }, {})
        } catch (e) {
          if (!(e instanceof StatementFileError)) throw e
        }
      }),
      { numRuns: RUNS },
    )

  it('CSV: a valid file cut, spliced, with quotes and delimiters dropped in', async () => {
    const seed = fc.constantFrom(seeds.csv, ...corpus('csv'))
    await uploads(
      'csv',
      seed.chain((s) => mutated(s, ['"', ',', ';', '\n', '\r', '""', 'Date', '2024-13-45', '-1,00', '1e400'])),
    )
  })

  it('every statement format, through the same path', async () => {
    for (const [format, formatSeeds] of FORMATS) {
      await uploads(
        format,
        fc.constantFrom(...formatSeeds).chain((s) => mutated(s, TOKENS[format])),
      )
    }
  })
})
