/**
 * Chinese, Japanese and Korean bank files that are not UTF-8: GB18030 (GBK) in mainland China,
 * Big5 in Taiwan, Shift_JIS in Japan, EUC-KR in Korea. A multi-byte page reads almost any bytes
 * without an error (Latin-1 "Müller" is a rare Han character in GBK), so a page is taken only on
 * the file's own evidence: decoded strictly, its first lines hold two or more of the bank terms the
 * mapping knows in that script ("交易日期", "余额", "残高", "잔액"); the page with the most wins.
 */
import { HEADER_NAMES } from './header-names.js'

const PAGES = ['gb18030', 'big5', 'shift_jis', 'euc-kr'] as const

const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u

/** The CJK names of every field, longest first (a longer name is counted before the shorter one inside it). */
const TERMS = [
  ...new Set(
    Object.values(HEADER_NAMES as Record<string, string>)
      .flatMap((block) => block.split('\n'))
      .flatMap((line) => line.slice(line.indexOf(':') + 1).split('|'))
      .map((name) => name.trim())
      .filter((name) => CJK.test(name)),
  ),
].sort((a, b) => b.length - a.length)

/** Lines of the sample the terms are looked for in: a header comes within the first ones. */
const LINES = 60

/** The CJK page whose strict reading of the sample shows the most bank terms (two at least), or undefined. */
export function guessCjkPage(sample: Uint8Array): { encoding: string; terms: number } | undefined {
  let best: { encoding: string; terms: number } | undefined
  for (const encoding of PAGES) {
    let text: string
    try {
      // A multi-byte character cut at the sample's end is no error: `stream` leaves it out.
      text = new TextDecoder(encoding, { fatal: true }).decode(sample, { stream: true })
    } catch {
      continue
    }
    const head = text.split(/\r\n|\r|\n/, LINES).join('\n')
    if (!CJK.test(head)) continue
    let rest = head
    let terms = 0
    for (const term of TERMS) {
      if (!rest.includes(term)) continue
      terms++
      rest = rest.replaceAll(term, ' ')
    }
    if (terms >= 2 && (!best || terms > best.terms)) best = { encoding, terms }
  }
  return best
}
