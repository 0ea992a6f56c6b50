/**
 * The code page of a CSV that is not UTF-8 (src/import/code-pages.ts): told
 * between windows-1252, -1250, -1257 and -1251 by the letters of the languages each is for, with
 * the plan saying which one and, when another page reads the file as well, how to change it.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guessCodePage } from '../../src/import/code-pages.js'
import { planImport } from '../../src/import/plan.js'
import { readRecords } from '../../src/import/read-rows.js'
import { detectEncoding, encodingNote } from '../../src/import/decode.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const HAND_MADE = join(import.meta.dirname, '..', 'fixtures', 'bank-files')

/** A text's bytes in a single-byte code page (the page's own decoding, read backwards). */
function encode(text: string, page: string): Uint8Array {
  const chars = new TextDecoder(page).decode(Uint8Array.from({ length: 256 }, (_, i) => i))
  return Uint8Array.from(
    [...text].map((c) => {
      const b = chars.indexOf(c)
      if (b < 0) throw new Error(`${c} is not in ${page}`)
      return b
    }),
  )
}

describe('the code page of a file that is not UTF-8', () => {
  it('a Lithuanian Windows-1257 file reads "Paslaugų ... už", not "Paslaugø ... uþ", and the plan says so', async () => {
    const path = join(HAND_MADE, 'lithuanian-windows-1257-no-bom.csv')
    const plan = await planImport(path)
    expect(plan.layout.encoding.encoding).toBe('windows-1257')
    expect(plan.notes[0]).toBe(
      'encoding windows-1257 (detected: not utf-8; its letters read as Lithuanian, Latvian or Estonian), delimiter ";"',
    )
    const texts: string[] = []
    for await (const rec of readRecords(path, plan.layout)) texts.push(rec.fields.join(';'))
    expect(texts[1]).toContain('Paslaugų ir komisinių mokestis už sausį')
    expect(texts[1]).toContain('UAB "Žalgiris"')
  })

  it.each([
    ['windows-1250', 'Płatność kartą w sklepie Żabka, Kraków;Opłata za prowadzenie rachunku'],
    ['windows-1250', 'Převod na účet - nájemné;Poplatek za vedení účtu, Žďár nad Sázavou'],
    ['windows-1257', 'Mokėjimas už paslaugas;Sąskaita už ryšio paslaugas, Šiaulių energija'],
    ['windows-1257', 'Šokolaad ja žetoonid, Selver Jõhvi'],
    ['windows-1252', 'Überweisung Miete, Hauptstraße 12;Bäckerei Schäfer'],
    ['windows-1252', 'Prélèvement EDF électricité;Virement reçu, Société Générale'],
    ['windows-1252', 'Nómina enero;Recibo de teléfono, compañía Movistar'],
    ['windows-1252', 'Dankortkøb Føtex, Århus;Overførsel til opsparing, Hævet i automat'],
    ['windows-1252', 'Varekjøp Kiwi Grünerløkka;Overføring Innland, Inn på konto'],
    ['windows-1252', 'Kortköp ICA Nära;Överföring till sparkonto, Återbetalning'],
    ['windows-1252', 'Korttiosto K-Market Töölö;Palvelumaksu, Tilisiirto Hämeenlinna'],
    ['windows-1252', 'Compra Continente Matosinhos;Transferência recebida, Pagamento de serviços'],
    ['windows-1251', 'Перечисление заработной платы;Комиссия за обслуживание счёта'],
    ['windows-1251', 'Поповнення картки;Переказ на картку, Сільпо Київ'],
  ])('%s: %s', (page, line) => {
    const guess = guessCodePage(encode(`Date;Text\n2024-01-02;${line}\n`, page))
    expect(guess.encoding).toBe(page)
    expect(guess.unsure).toBeUndefined()
  })

  it('German that every page reads alike is windows-1252, sure, without a word on languages', () => {
    const d = detectEncoding(encode('Datum;Empfänger;Betrag\n02.01.2024;Müller;-1,00\n', 'windows-1252'))
    expect(d).toMatchObject({ encoding: 'windows-1252', how: 'not utf-8', codePage: { languages: [] } })
    expect(encodingNote(d)).toBe('encoding windows-1252 (detected: not utf-8)')
  })

  it('when another page reads the letters as well, it says it is not sure, what would change, and the flag', () => {
    // "à" and "è" are French in windows-1252; the same bytes are "ŕ" (Slovak) and "č" (Czech) in windows-1250.
    const d = detectEncoding(encode('Date;Text\n2024-01-02;Paiement à Genève\n', 'windows-1252'))
    expect(d.encoding).toBe('windows-1252')
    expect(d.codePage?.unsure).toEqual({ encoding: 'windows-1250', word: 'à', reads: 'ŕ' })
    expect(encodingNote(d)).toBe(
      'encoding windows-1252 (detected: not utf-8; its letters read as German, French, Spanish, Dutch, Norwegian, Danish, Swedish, Finnish, Portuguese or Italian; not sure: windows-1250 reads "à" as "ŕ", give --encoding windows-1250 if that is right)',
    )
  })

  it('--encoding wins, and valid UTF-8 stays UTF-8', () => {
    expect(encodingNote(detectEncoding(encode('a;ą\n', 'windows-1257'), 'cp1252'))).toBe('encoding windows-1252 (given)')
    expect(detectEncoding(new TextEncoder().encode('Mokėjimas už')).encoding).toBe('utf-8')
  })

  it.skipIf(!HAS_BANK_FILES)('the real Danske Lithuania export (Windows-1257) is read so without --encoding', async () => {
    const plan = await planImport(bankFile('csv', 'lt-danske-cp1257-crlf-multiline-quoted.csv'))
    expect(plan.layout.encoding.encoding).toBe('windows-1257')
    for (const f of [
      'de-dkb-creditcard-latin1-preamble-lines.csv',
      'de-gls-latin1-semicolon-no-final-newline.csv',
      'fr-sample-cp1252-euro-no-final-newline.csv',
    ])
      expect((await planImport(bankFile('csv', f))).layout.encoding.encoding).toBe('windows-1252')
  })
})
