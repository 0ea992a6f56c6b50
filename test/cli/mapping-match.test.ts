/**
 * Which saved mappings a file's header matches (src/cli/mappings.ts, mappingsMatching): read with
 * each mapping's own encoding and delimiter, after preamble lines, ignoring a byte-order mark,
 * spaces around cells and a trailing empty cell; a mapping without a source never matches.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type SavedMapping, mappingsMatching } from '../../src/cli/mappings.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function file(bytes: Uint8Array | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'finctl-mapping-match-'))
  dirs.push(dir)
  const path = join(dir, 'export.csv')
  writeFileSync(path, bytes)
  return path
}

const source = (header: string[], encoding = 'utf-8', delimiter = ',') => ({
  header,
  encoding,
  delimiter,
  saved_at: '2026-11-25T00:00:00.000Z',
})

describe('mappingsMatching', () => {
  const saved: Record<string, SavedMapping> = {
    bank: { map: [['date', 'Datum']], source: source(['Datum', 'Betrag', 'Text'], 'utf-8', ';') },
    latin: { source: source(['Buchungstag', 'Empfänger', 'Betrag'], 'windows-1252', ';') },
    other: { source: source(['Date', 'Amount', 'Memo']) },
    old: { map: [['date', 'Datum']] },
  }

  it('finds the header after preamble lines, with a BOM, spaces and a trailing delimiter', async () => {
    const f = file('\uFEFFKonto;123\nZeitraum;2026\n\n Datum ; Betrag;Text;\n01.02.2026;-5,00;Brot;\n')
    expect(await mappingsMatching(f, saved)).toEqual(['bank'])
  })

  it("reads the file in the mapping's encoding", async () => {
    const f = file(Buffer.from('Buchungstag;Empf\xe4nger;Betrag\n01.02.2026;Laden;-5,00\n', 'latin1'))
    expect(await mappingsMatching(f, saved)).toEqual(['latin'])
  })

  it('matches nothing for another header, a header with a column more, or only old mappings', async () => {
    expect(await mappingsMatching(file('Posting Date,Amount,Description\n2026-01-01,1.00,x\n'), saved)).toEqual([])
    expect(await mappingsMatching(file('Datum;Betrag;Text;Saldo\n01.02.2026;-5,00;Brot;10,00\n'), saved)).toEqual([])
    expect(await mappingsMatching(file('Datum;Betrag;Text\n'), { old: saved.old })).toEqual([])
  })

  it('names every mapping that matches, sorted', async () => {
    const twice = { b: saved.other, a: saved.other }
    expect(await mappingsMatching(file('Date,Amount,Memo\n2026-01-01,1.00,x\n'), twice)).toEqual(['a', 'b'])
  })
})
