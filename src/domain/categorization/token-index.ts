/**
 * The model's token ids. A token is known by its text (training, explanations, snapshots) or found
 * straight from a row's fields (prediction, learning) without building the row's token strings.
 *
 * Why hand-written: predicting a row looked each token up in a `Map<string, number>`, and the
 * bigram (`b:x_y`), merchant (`m:x`) and amount tokens were strings built per row, hashed at each
 * lookup: most of an import's prediction time (docs/performance.md, "Categorization", has the
 * figures before and after). Here a word is hashed from the characters of the description itself,
 * lower-cased on the fly, into an open-addressing table whose slot also holds the ids of the word's
 * word and merchant tokens; a bigram is a pair of word ids in a second table; amount tokens are a
 * fixed list. A slot is one run of four int32s, so a lookup reads one cache line. Latin letters
 * with diacritics are read through a table (FOLD); rows with other non-ASCII text take the string
 * path (their words need NFKD), with the same ids.
 *
 * `known(f)` yields exactly the ids of `tokens(f)` that the index holds, in the same order (the
 * model's sums add in that order, so predictions are bit-for-bit those of the string path), and
 * `missed` says how many of `tokens(f)` it does not hold.
 */
import { AMOUNT_TOKENS, amountCodes, isWordShape, MAX_BIGRAMS, normalize, tokens, type Features } from './features.js'

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const AMOUNT_CODES = new Map(AMOUNT_TOKENS.map((t, i) => [t, i]))

// A word's slot: its hash, its id + 1 (0: empty slot), its word token's id + 1 and its merchant
// token's id + 1 (0: no such token). A bigram's slot: second word id, first word id + 1 (0: empty), token id.
const W_HASH = 0
const W_ID = 1
const W_WORD = 2
const W_MERCHANT = 3
const P_B = 0
const P_A = 1
const P_ID = 2
const SLOT = 4

/**
 * What each character from U+0080 to U+024F (the Latin letters with diacritics, of most non-ASCII
 * bank text) is in a word, as features.ts's `normalize` makes it: the code of the one ASCII letter
 * or digit it becomes ("É" -> "e"), 0 for a separator (it keeps no letter or digit), -1 for any
 * other (the row then takes the string path). A text is normalized a character at a time here:
 * NFKD only decomposes, its reordering moves marks alone, which are dropped, and lower-casing is
 * per character but for the final sigma, which is not in this range.
 */
const FOLD = (() => {
  const fold = new Int8Array(0x250 - 0x80)
  for (let c = 0x80; c < 0x250; c++) {
    const n = normalize(String.fromCharCode(c))
    const a = n.length === 1 ? n.charCodeAt(0) : -1
    if ((a >= 48 && a <= 57) || (a >= 97 && a <= 122)) fold[c - 0x80] = a
    else fold[c - 0x80] = n.length > 0 && !/[\p{L}\p{N}]/u.test(n) ? 0 : -1
  }
  return fold
})()

/** A character over U+007F in a word: FOLD's entry, -1 past its range. */
const folded = (c: number): number => (c < 0x250 ? FOLD[c - 0x80] : -1)

/** FNV-1a over UTF-16 code units: the same for a word as a string and as a lower-cased range. */
function hashString(s: string): number {
  let h = FNV_OFFSET
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME)
  return h | 0
}

function pairHash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ b
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b)
  return h ^ (h >>> 13)
}

export class TokenIndex {
  private readonly names: string[] = []
  private readonly words: string[] = []
  /** Open addressing, kept under half full. */
  private wordSlots = new Int32Array(512 * SLOT)
  private pairSlots = new Int32Array(512 * SLOT)
  private pairs = 0
  private readonly amounts = new Int32Array(AMOUNT_TOKENS.length).fill(-1)
  private readonly others = new Map<string, number>()
  // Per-row scratch of the fast path: description word ids (-1 unknown) and amount codes.
  private descIds = new Int32Array(64)
  private readonly codes = new Int32Array(3)
  /** Words of the last `scan`. */
  private scanned = 0
  /** The ids the last `find` found, `found[0]` to `found[count - 1]` (typed: a row allocates nothing). */
  found = new Int32Array(64)
  /** How many tokens of the last `find` row the index does not hold. */
  missed = 0

  /** Tokens held. */
  get size(): number {
    return this.names.length
  }

  /** A token's text. */
  name(id: number): string {
    return this.names[id]
  }

  /** A token's id; with `create` a new token gets the next id, without it an unknown one is -1. */
  id(token: string, create: boolean): number {
    if (token.startsWith('b:')) {
      const cut = token.indexOf('_', 2)
      const a = this.word(token.slice(2, cut), create)
      const b = a < 0 ? -1 : this.word(token.slice(cut + 1), create)
      if (b < 0) return -1
      const id = this.pair(a, b)
      return id >= 0 || !create ? id : this.addPair(a, b, token)
    }
    if (token.startsWith('m:')) return this.wordToken(token.slice(2), W_MERCHANT, token, create)
    const code = AMOUNT_CODES.get(token)
    if (code !== undefined) {
      if (this.amounts[code] < 0 && create) this.amounts[code] = this.append(token)
      return this.amounts[code]
    }
    if (token.includes(':')) {
      // Not a form tokens() makes; kept so that any text round-trips.
      const id = this.others.get(token)
      if (id !== undefined || !create) return id ?? -1
      const added = this.append(token)
      this.others.set(token, added)
      return added
    }
    return this.wordToken(token, W_WORD, token, create)
  }

  /** Appends to `out` the ids of `tokens(f)` the index holds, in order, and sets `missed` (see the module's comment). */
  known(f: Features, out: number[]): void {
    const n = this.find(f)
    for (let i = 0; i < n; i++) out.push(this.found[i])
  }

  /** `known` into `found`: returns how many ids it wrote. */
  find(f: Features): number {
    this.missed = 0
    const n = this.findAscii(f)
    if (n >= 0) return n
    this.missed = 0
    let k = 0
    for (const t of tokens(f)) {
      const id = this.id(t, false)
      if (id >= 0) k = this.put(k, id)
      else this.missed++
    }
    return k
  }

  /** `found[k] = id`, growing it; returns k + 1. */
  private put(k: number, id: number): number {
    if (k === this.found.length) {
      const grown = new Int32Array(k * 2)
      grown.set(this.found)
      this.found = grown
    }
    this.found[k] = id
    return k + 1
  }

  /** `find` without building strings; -1 on text FOLD does not read (then the string path decides). */
  private findAscii(f: Features): number {
    let k = this.scan(f.description, W_WORD, 0)
    if (k < 0) return -1
    const bigrams = Math.min(MAX_BIGRAMS, this.scanned - 1)
    const d = this.descIds
    for (let i = 0; i < bigrams; i++) {
      const id = d[i] < 0 || d[i + 1] < 0 ? -1 : this.pair(d[i], d[i + 1])
      if (id >= 0) k = this.put(k, id)
      else this.missed++
    }
    if (f.merchant_name) {
      k = this.scan(f.merchant_name, W_MERCHANT, k)
      if (k < 0) return -1
    }
    const codes = this.codes
    const n = amountCodes(f.amount_minor, f.currency_exponent ?? 2, codes)
    for (let i = 0; i < n; i++) {
      const id = this.amounts[codes[i]]
      if (id >= 0) k = this.put(k, id)
      else this.missed++
    }
    return k
  }

  /**
   * The words of `text` (runs of letters and digits, lower-cased, folded, as features.ts keeps them):
   * the ids of their word tokens (`field` W_WORD, the description: word ids to `descIds` too) or
   * merchant tokens (W_MERCHANT) go to `found` from `k`. Returns the new k (the number of words in
   * `scanned`), -1 on a character FOLD does not read.
   */
  private scan(text: string, field: number, k: number): number {
    let n = 0
    let i = 0
    const len = text.length
    while (i < len) {
      let c = text.charCodeAt(i)
      if (c > 127) {
        c = folded(c)
        if (c < 0) return -1
      }
      if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90))) {
        i++
        continue
      }
      const from = i
      let h = FNV_OFFSET
      let digits = 0
      for (; i < len; i++) {
        c = text.charCodeAt(i)
        if (c > 127) {
          c = folded(c)
          if (c < 0) return -1
        }
        if (c >= 65 && c <= 90) c += 32
        else if (c >= 48 && c <= 57) digits++
        else if (c < 97 || c > 122) break
        h = Math.imul(h ^ c, FNV_PRIME)
      }
      if (!isWordShape(i - from, digits)) continue
      const s = this.findRange(text, from, i - from, h | 0)
      if (field === W_WORD) {
        if (n === this.descIds.length) {
          const grown = new Int32Array(n * 2)
          grown.set(this.descIds)
          this.descIds = grown
        }
        this.descIds[n] = s < 0 ? -1 : this.wordSlots[s + W_ID] - 1
      }
      n++
      const id = s < 0 ? -1 : this.wordSlots[s + field] - 1
      if (id >= 0) k = this.put(k, id)
      else this.missed++
    }
    this.scanned = n
    return k
  }

  /** The slot (offset) of the word spelt by `len` characters of `text` from `from`, lower-cased; -1 if unknown. */
  private findRange(text: string, from: number, len: number, h: number): number {
    const slots = this.wordSlots
    const mask = slots.length / SLOT - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * SLOT
      const w = slots[at + W_ID] - 1
      if (w < 0) return -1
      if (slots[at + W_HASH] !== h) continue
      const word = this.words[w]
      if (word.length !== len) continue
      let i = 0
      for (; i < len; i++) {
        let c = text.charCodeAt(from + i)
        if (c >= 65 && c <= 90) c += 32
        else if (c > 127) c = folded(c)
        if (c !== word.charCodeAt(i)) break
      }
      if (i === len) return at
    }
  }

  /** The slot (offset) of a word, added when `create`; -1 if unknown. */
  private wordSlot(word: string, create: boolean): number {
    const h = hashString(word)
    const slots = this.wordSlots
    const mask = slots.length / SLOT - 1
    let s = h & mask
    for (; ; s = (s + 1) & mask) {
      const w = slots[s * SLOT + W_ID] - 1
      if (w < 0) break
      if (slots[s * SLOT + W_HASH] === h && this.words[w] === word) return s * SLOT
    }
    if (!create) return -1
    this.words.push(word)
    slots[s * SLOT + W_HASH] = h
    slots[s * SLOT + W_ID] = this.words.length
    if (this.words.length * 2 <= slots.length / SLOT) return s * SLOT
    this.wordSlots = rehash(slots, (at) => slots[at + W_HASH])
    return this.wordSlot(word, false)
  }

  private word(word: string, create: boolean): number {
    const at = this.wordSlot(word, create)
    return at < 0 ? -1 : this.wordSlots[at + W_ID] - 1
  }

  /** The word or merchant token (`field`) of a word. */
  private wordToken(word: string, field: number, text: string, create: boolean): number {
    let at = this.wordSlot(word, create)
    if (at < 0) return -1
    const id = this.wordSlots[at + field] - 1
    if (id >= 0 || !create) return id
    const added = this.append(text)
    at = this.wordSlot(word, false) // the table may have grown
    this.wordSlots[at + field] = added + 1
    return added
  }

  private pair(a: number, b: number): number {
    const slots = this.pairSlots
    const mask = slots.length / SLOT - 1
    for (let s = pairHash(a, b) & mask; ; s = (s + 1) & mask) {
      const at = s * SLOT
      const first = slots[at + P_A] - 1
      if (first < 0) return -1
      if (first === a && slots[at + P_B] === b) return slots[at + P_ID]
    }
  }

  private addPair(a: number, b: number, text: string): number {
    const id = this.append(text)
    if (++this.pairs * 2 > this.pairSlots.length / SLOT) {
      const old = this.pairSlots
      this.pairSlots = rehash(old, (at) => pairHash(old[at + P_A] - 1, old[at + P_B]))
    }
    const slots = this.pairSlots
    const mask = slots.length / SLOT - 1
    let s = pairHash(a, b) & mask
    while (slots[s * SLOT + P_A] !== 0) s = (s + 1) & mask
    slots[s * SLOT + P_A] = a + 1
    slots[s * SLOT + P_B] = b
    slots[s * SLOT + P_ID] = id
    return id
  }

  private append(text: string): number {
    this.names.push(text)
    return this.names.length - 1
  }
}

/** The slots of `old` (field 1, W_ID or P_A, nonzero: taken) in a table twice its size, placed by `hash`. */
function rehash(old: Int32Array, hash: (at: number) => number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(old.length * 2)
  const mask = slots.length / SLOT - 1
  for (let at = 0; at < old.length; at += SLOT) {
    if (old[at + 1] === 0) continue
    let s = hash(at) & mask
    while (slots[s * SLOT + 1] !== 0) s = (s + 1) & mask
    slots.set(old.subarray(at, at + SLOT), s * SLOT)
  }
  return slots
}
