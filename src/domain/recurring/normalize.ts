/**
 * What a recurring payment's transactions are grouped and found by: the merchant when the row has
 * one, else its description without what changes from one payment to the next (numbers, dates,
 * references: any word with a digit), lower-cased, its first four words.
 */
const SPLIT = /[\s*#/|,;:]+/

export function matchKey(merchant: string | null, description: string): string {
  if (merchant !== null && merchant.trim() !== '') return `m:${merchant.trim().toLowerCase()}`
  const words: string[] = []
  for (const raw of description.toLowerCase().split(SPLIT)) {
    if (raw === '' || /\d/.test(raw)) continue
    const w = raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    if (w === '') continue
    words.push(w)
    if (words.length === 4) break
  }
  return `d:${words.join(' ')}`
}

/** The name a key shows: the merchant, or the description's words. */
export function keyName(key: string): string {
  return key.slice(2)
}
