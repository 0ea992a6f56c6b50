/**
 * Which Windows code page a file that is not UTF-8 is written in, among those of the languages the
 * header mapping knows: windows-1252 (English, German, French, Spanish, Dutch), windows-1250
 * (Polish, Czech, Slovak) and windows-1257 (Lithuanian, Latvian, Estonian). Each page decodes the
 * sample; a word with letters beyond ASCII counts for a page when every such letter of it belongs to
 * one of the page's languages, against it when not ("Paslaugø" is no word of a windows-1252
 * language, "Paslaugų" is Lithuanian). The page with the most words for it wins, windows-1252 on a
 * tie; a tie between pages that read the file differently is reported as not sure. The rule and how
 * it was measured against chardet: docs/csv-mapping.md.
 */

/** The letters beyond ASCII of each language. */
const LETTERS: Record<string, string> = {
  German: 'äöüßÄÖÜ',
  French: 'àâæçéèêëîïôœùûüÿÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸ',
  Spanish: 'áéíóúñüÁÉÍÓÚÑÜ',
  Dutch: 'áéíóúàèëïöüÁÉÍÓÚÈËÏÖÜ',
  Polish: 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻ',
  Czech: 'áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ',
  Slovak: 'áäčďéíĺľňóôŕšťúýžÁÄČĎÉÍĹĽŇÓÔŔŠŤÚÝŽ',
  Lithuanian: 'ąčęėįšųūžĄČĘĖĮŠŲŪŽ',
  Latvian: 'āčēģīķļņšūžĀČĒĢĪĶĻŅŠŪŽ',
  Estonian: 'äõöüšžÄÕÖÜŠŽ',
}

/** The code pages tried, the first winning a tie, with their languages. */
export const CODE_PAGES: ReadonlyArray<{ encoding: string; languages: string[] }> = [
  { encoding: 'windows-1252', languages: ['German', 'French', 'Spanish', 'Dutch'] },
  { encoding: 'windows-1250', languages: ['Polish', 'Czech', 'Slovak'] },
  { encoding: 'windows-1257', languages: ['Lithuanian', 'Latvian', 'Estonian'] },
]

const SETS: Record<string, Set<string>> = Object.fromEntries(Object.entries(LETTERS).map(([k, v]) => [k, new Set(v)]))

/** Words of a text: runs of anything but white space and ASCII digits and punctuation. */
const WORD_BREAK = /[\s!-@[-`{-~]+/
const LETTER = /\p{L}/u

/** Words with a letter and a character beyond ASCII that read as one of the languages, less those that do not. */
function score(words: string[], languages: string[]): number {
  let s = 0
  for (const w of words) {
    if (!LETTER.test(w)) continue
    const high = [...w].filter((c) => c.charCodeAt(0) > 0x7f)
    if (high.length) s += languages.some((l) => high.every((c) => SETS[l].has(c))) ? 1 : -1
  }
  return s
}

export interface CodePageGuess {
  encoding: string
  /** The languages whose letters decided it (none when every page reads the sample alike). */
  languages: string[]
  /** Another page that reads the sample as well but differently: the guess is not sure. */
  unsure?: { encoding: string; word: string; reads: string }
}

/** The code page of a sample that is not UTF-8. */
export function guessCodePage(sample: Uint8Array): CodePageGuess {
  const read = CODE_PAGES.map((p) => {
    const text = new TextDecoder(p.encoding).decode(sample)
    // The same bytes break words alike in every page: below 0x80 they decode the same.
    const words = text.split(WORD_BREAK)
    return { ...p, text, words, score: score(words, p.languages) }
  })
  let best = read[0]
  for (const r of read) if (r.score > best.score) best = r
  const others = read.filter((r) => r !== best && r.text !== best.text)
  if (others.length === 0) return { encoding: best.encoding, languages: [] }
  const rival = others.find((r) => r.score === best.score)
  if (!rival) return { encoding: best.encoding, languages: best.languages }
  // The first word the two pages read differently shows the user what is at stake.
  const i = best.words.findIndex((w, k) => rival.words[k] !== w)
  return {
    encoding: best.encoding,
    languages: best.languages,
    unsure: { encoding: rival.encoding, word: best.words[i] ?? '', reads: rival.words[i] ?? '' },
  }
}
