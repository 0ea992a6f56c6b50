/**
 * The model's token ids. A token is known by its text (training, explanations, snapshots) or found
 * straight from a row's fields (prediction) without building the row's token strings.
 *
 * Why hand-written: predicting a row looked each token up in a `Map<string, number>`, and the
 * bigram (`b:x_y`), merchant (`m:x`) and amount tokens were strings built per row, hashed at each
 * lookup: most of an import's prediction time (docs/performance.md, "Categorization", has the
 * figures before and after). Here a word is hashed from the characters of
 * the description itself, lower-cased on the fly, into an open-addressing table of word ids; a
 * token is a (kind, word id, word id) triple in a second table; amount tokens are a fixed list.
 * Rows with non-ASCII text take the string path (their words need NFKD), with the same ids.
 *
 * `known(f)` yields exactly the ids of `tokens(f)` that the index holds, in the same order (the
 * model's sums add in that order, so predictions are bit-for-bit those of the string path).
 */
import { AMOUNT_TOKENS, amountCodes, isWordShape, MAX_BIGRAMS, tokens, type Features } from './features.js'

const WORD = 0
const MERCHANT = 1
const BIGRAM = 2
const AMOUNT = 3
const OTHER = 4

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const AMOUNT_CODES = new Map(AMOUNT_TOKENS.map((t, i) => [t, i]))

/** FNV-1a over UTF-16 code units: the same for a word as a string and as a lower-cased range. */
function hashString(s: string): number {
  let h = FNV_OFFSET
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME)
  return h | 0
}

function mix(kind: number, a: number, b: number): number {
  let h = Math.imul(kind + 1, 0x9e3779b1) ^ a
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) ^ b
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

const grow = (a: Int32Array, size: number) => {
  const next = new Int32Array(size)
  next.set(a)
  return next
}

export class TokenIndex {
  private readonly names: string[] = []
  // Words: ids in an open-addressing table of 2^k slots (id + 1; 0 = empty), kept under half full.
  private readonly words: string[] = []
  private wordHash = new Int32Array(256)
  private wordSlots = new Int32Array(512)
  // Tokens: (kind, a, b) per id, and their table.
  private kinds = new Int32Array(1024)
  private as = new Int32Array(1024)
  private bs = new Int32Array(1024)
  private slots = new Int32Array(2048)
  private readonly amounts = new Int32Array(AMOUNT_TOKENS.length).fill(-1)
  private readonly others = new Map<string, number>()
  // Per-row scratch of the fast path: description word ids (-1 unknown) and amount codes.
  private descIds = new Int32Array(64)
  private readonly codes: number[] = []

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
      return b < 0 ? -1 : this.token(BIGRAM, a, b, token, create)
    }
    if (token.startsWith('m:')) {
      const a = this.word(token.slice(2), create)
      return a < 0 ? -1 : this.token(MERCHANT, a, 0, token, create)
    }
    const code = AMOUNT_CODES.get(token)
    if (code !== undefined) {
      if (this.amounts[code] < 0 && create) this.amounts[code] = this.append(AMOUNT, code, 0, token)
      return this.amounts[code]
    }
    if (token.includes(':')) {
      // Not a form tokens() makes; kept so that any text round-trips.
      const id = this.others.get(token)
      if (id !== undefined || !create) return id ?? -1
      const added = this.append(OTHER, 0, 0, token)
      this.others.set(token, added)
      return added
    }
    const a = this.word(token, create)
    return a < 0 ? -1 : this.token(WORD, a, 0, token, create)
  }

  /** Appends to `out` the ids of `tokens(f)` the index holds, in order (see the module's comment). */
  known(f: Features, out: number[]): void {
    const start = out.length
    if (!this.knownAscii(f, out)) {
      out.length = start
      for (const t of tokens(f)) {
        const id = this.id(t, false)
        if (id >= 0) out.push(id)
      }
    }
  }

  private knownAscii(f: Features, out: number[]): boolean {
    const n = this.scan(f.description, -1, out)
    if (n < 0) return false
    const bigrams = Math.min(MAX_BIGRAMS, n - 1)
    const d = this.descIds
    for (let i = 0; i < bigrams; i++) {
      if (d[i] < 0 || d[i + 1] < 0) continue
      const id = this.find(BIGRAM, d[i], d[i + 1])
      if (id >= 0) out.push(id)
    }
    if (f.merchant_name && this.scan(f.merchant_name, MERCHANT, out) < 0) return false
    const codes = this.codes
    codes.length = 0
    amountCodes(f.amount_minor, f.currency_exponent ?? 2, codes)
    for (const c of codes) if (this.amounts[c] >= 0) out.push(this.amounts[c])
    return true
  }

  /**
   * The words of ASCII `text` (runs of letters and digits, lower-cased, as features.ts keeps them):
   * for the description (`kind` -1) their ids go to `descIds` and their word tokens' ids to `out`;
   * for a merchant their merchant tokens' ids to `out`. Returns the number of words, -1 on non-ASCII.
   */
  private scan(text: string, kind: number, out: number[]): number {
    let n = 0
    let i = 0
    const len = text.length
    while (i < len) {
      let c = text.charCodeAt(i)
      if (c > 127) return -1
      if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90))) {
        i++
        continue
      }
      const from = i
      let h = FNV_OFFSET
      let digits = 0
      for (; i < len; i++) {
        c = text.charCodeAt(i)
        if (c >= 65 && c <= 90) c += 32
        else if (c >= 48 && c <= 57) digits++
        else if (c < 97 || c > 122) break
        h = Math.imul(h ^ c, FNV_PRIME)
      }
      if (i < len && c > 127) return -1
      if (!isWordShape(i - from, digits)) continue
      const w = this.findRange(text, from, i - from, h | 0)
      if (kind < 0) {
        if (n === this.descIds.length) this.descIds = grow(this.descIds, n * 2)
        this.descIds[n] = w
      }
      n++
      if (w < 0) continue
      const id = this.find(kind < 0 ? WORD : kind, w, 0)
      if (id >= 0) out.push(id)
    }
    return n
  }

  private findRange(text: string, from: number, len: number, h: number): number {
    const mask = this.wordSlots.length - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const w = this.wordSlots[s] - 1
      if (w < 0) return -1
      if (this.wordHash[w] !== h) continue
      const word = this.words[w]
      if (word.length !== len) continue
      let i = 0
      for (; i < len; i++) {
        let c = text.charCodeAt(from + i)
        if (c >= 65 && c <= 90) c += 32
        if (c !== word.charCodeAt(i)) break
      }
      if (i === len) return w
    }
  }

  private word(word: string, create: boolean): number {
    const h = hashString(word)
    const mask = this.wordSlots.length - 1
    let s = h & mask
    for (; ; s = (s + 1) & mask) {
      const w = this.wordSlots[s] - 1
      if (w < 0) break
      if (this.wordHash[w] === h && this.words[w] === word) return w
    }
    if (!create) return -1
    const w = this.words.length
    this.words.push(word)
    if (w === this.wordHash.length) this.wordHash = grow(this.wordHash, w * 2)
    this.wordHash[w] = h
    this.wordSlots[s] = w + 1
    if (this.words.length * 2 > this.wordSlots.length) {
      this.wordSlots = new Int32Array(this.wordSlots.length * 2)
      const m = this.wordSlots.length - 1
      for (let i = 0; i < this.words.length; i++) {
        let t = this.wordHash[i] & m
        while (this.wordSlots[t] !== 0) t = (t + 1) & m
        this.wordSlots[t] = i + 1
      }
    }
    return w
  }

  private find(kind: number, a: number, b: number): number {
    const mask = this.slots.length - 1
    for (let s = mix(kind, a, b) & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s] - 1
      if (id < 0) return -1
      if (this.as[id] === a && this.bs[id] === b && this.kinds[id] === kind) return id
    }
  }

  private token(kind: number, a: number, b: number, text: string, create: boolean): number {
    const id = this.find(kind, a, b)
    return id >= 0 || !create ? id : this.append(kind, a, b, text)
  }

  private append(kind: number, a: number, b: number, text: string): number {
    const id = this.names.length
    this.names.push(text)
    if (id === this.kinds.length) {
      this.kinds = grow(this.kinds, id * 2)
      this.as = grow(this.as, id * 2)
      this.bs = grow(this.bs, id * 2)
    }
    this.kinds[id] = kind
    this.as[id] = a
    this.bs[id] = b
    if (kind === AMOUNT || kind === OTHER) return id // not in the table: found by code, or by text
    if ((id + 1) * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2)
      for (let i = 0; i < id; i++) if (this.kinds[i] !== AMOUNT && this.kinds[i] !== OTHER) this.place(i)
    }
    this.place(id)
    return id
  }

  private place(id: number): void {
    const mask = this.slots.length - 1
    let s = mix(this.kinds[id], this.as[id], this.bs[id]) & mask
    while (this.slots[s] !== 0) s = (s + 1) & mask
    this.slots[s] = id + 1
  }
}
