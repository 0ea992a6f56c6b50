/**
 * Which Windows code page a file that is not UTF-8 is written in, among those of the languages the
 * header mapping knows: windows-1252 (English, German, French, Spanish, Dutch, the Nordic
 * languages, Portuguese, Italian), windows-1250 (Polish, Czech, Slovak), windows-1257 (Lithuanian,
 * Latvian, Estonian) and windows-1251 (Russian, Ukrainian). Each page decodes the sample; a word
 * with letters beyond ASCII counts for each of the page's languages it belongs to, and against the
 * page when it belongs to none ("uþ" is no word of a windows-1252 language, "už" is Lithuanian). A
 * page scores its likeliest language's words less those against it; a Cyrillic word has no Latin
 * letter ("Mьller" is German read as windows-1251), and windows-1251 takes part only when it scores
 * above zero. The highest score wins, windows-1252 on a tie; a tie between pages that read the
 * file differently is reported as not sure. The rule and how it was measured: docs/csv-mapping.md.
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
  Norwegian: 'æøåéÆØÅÉ',
  Danish: 'æøåéÆØÅÉ',
  Swedish: 'åäöéÅÄÖÉ',
  Finnish: 'åäöšžÅÄÖŠŽ',
  Portuguese: 'áàâãçéêíóôõúüÁÀÂÃÇÉÊÍÓÔÕÚÜ',
  Italian: 'àèéìíîòóùúÀÈÉÌÍÎÒÓÙÚ',
  Russian: 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ',
  Ukrainian: 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяАБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ',
}

/** The code pages tried, the first winning a tie, with their languages; `cyrillic`: their words have no Latin letter. */
export const CODE_PAGES: ReadonlyArray<{ encoding: string; languages: string[]; cyrillic?: boolean }> = [
  {
    encoding: 'windows-1252',
    languages: ['German', 'French', 'Spanish', 'Dutch', 'Norwegian', 'Danish', 'Swedish', 'Finnish', 'Portuguese', 'Italian'],
  },
  { encoding: 'windows-1250', languages: ['Polish', 'Czech', 'Slovak'] },
  { encoding: 'windows-1257', languages: ['Lithuanian', 'Latvian', 'Estonian'] },
  { encoding: 'windows-1251', languages: ['Russian', 'Ukrainian'], cyrillic: true },
]

const SETS: Record<string, Set<string>> = Object.fromEntries(Object.entries(LETTERS).map(([k, v]) => [k, new Set(v)]))

/** Words of a text: runs of anything but white space and ASCII digits and punctuation. */
const WORD_BREAK = /[\s!-@[-`{-~]+/
const LETTER = /\p{L}/u
const LATIN = /[A-Za-z]/

/**
 * Words with a letter and a character beyond ASCII that read as the page's likeliest language,
 * less those that read as none of its languages: a file is in one language, so "Belřb" and "pĺ"
 * (Danish read as windows-1250: Czech, then Slovak) count less than "Beløb" and "på".
 */
function score(words: string[], languages: string[], cyrillic?: boolean): number {
  const counts = languages.map(() => 0)
  let against = 0
  for (const w of words) {
    if (!LETTER.test(w)) continue
    const high = [...w].filter((c) => c.charCodeAt(0) > 0x7f)
    if (high.length === 0) continue
    let reads = false
    if (!(cyrillic && LATIN.test(w)))
      languages.forEach((l, i) => {
        if (high.every((c) => SETS[l].has(c))) {
          counts[i]++
          reads = true
        }
      })
    if (!reads) against++
  }
  return Math.max(...counts) - against
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
    return { ...p, text, words, score: score(words, p.languages, p.cyrillic) }
  }).filter((r) => !r.cyrillic || r.score > 0)
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
