/**
 * The literals a regular expression's every match must contain one of, so that a rule's pattern is
 * decided without the regex engine on a row that holds none of them (most rows, for most rules).
 *
 * Why hand-written: re2js ran the one `--matches` rule of the categorize bench on every imported
 * row, most of what the rules cost (docs/performance.md, "Categorization"). RE2 keeps its own
 * prefilter internal, so this reads a small subset of RE2 syntax (literals, groups, alternation,
 * repetition, classes, anchors) and gives up (null) on anything else: a pattern it does not read
 * always runs on the engine. The literals are lower-cased ASCII; of all code points, RE2's case
 * folding joins only U+212A (Kelvin sign) and U+017F (long s) to ASCII letters (checked over every
 * code point with re2js), so text lower-cased with `ſ` read as `s` holds a literal wherever RE2
 * matches it.
 */

/** At most this many literals per set (cross products of alternations grow fast), and sets kept. */
const MAX_SET = 16
const MAX_SETS = 3

/** A set of literals one of which must occur; null when nothing is known. */
type LiteralSet = string[] | null

interface Info {
  /** Every string the node matches, when few and known (lower-cased). */
  exact: LiteralSet
  /** Each of these sets has a literal in every match (lower-cased). */
  all: string[][]
}

const ANY: Info = { exact: null, all: [] }
const EMPTY: Info = { exact: [''], all: [] }

class GiveUp extends Error {}

const shortest = (s: string[]) => Math.min(...s.map((x) => x.length))
/** A set that rejects rows: literals of 2+ characters (one character is in nearly every row). */
const usable = (s: LiteralSet): s is string[] => s !== null && s.length > 0 && shortest(s) >= 2

/** The strongest sets first (the longest shortest literal, then the fewest literals), at most MAX_SETS. */
function strongest(sets: string[][]): string[][] {
  const seen = new Set<string>()
  return sets
    .filter((s) => usable(s) && !seen.has(s.join('\n')) && seen.add(s.join('\n')))
    .sort((a, b) => shortest(b) - shortest(a) || a.length - b.length)
    .slice(0, MAX_SETS)
}

/** The node's strongest single set (an alternation needs one per branch). */
const best = (i: Info): LiteralSet => strongest(i.exact ? [i.exact, ...i.all] : i.all)[0] ?? null

function product(a: string[], b: string[]): LiteralSet {
  if (a.length * b.length > MAX_SET) return null
  const out: string[] = []
  for (const x of a) for (const y of b) out.push(x + y)
  return [...new Set(out)]
}

class Reader {
  private i = 0
  constructor(private readonly p: string) {}

  read(): Info {
    const r = this.alternation()
    if (this.i < this.p.length) throw new GiveUp()
    return r
  }

  private alternation(): Info {
    const branches = [this.concatenation()]
    while (this.p[this.i] === '|') {
      this.i++
      branches.push(this.concatenation())
    }
    if (branches.length === 1) return branches[0]
    const exact = branches.every((b) => b.exact !== null) ? [...new Set(branches.flatMap((b) => b.exact as string[]))] : null
    const sets = branches.map(best)
    const any = sets.every((s) => s !== null) ? [...new Set(sets.flatMap((s) => s as string[]))] : []
    return { exact: exact && exact.length <= MAX_SET ? exact : null, all: any.length <= MAX_SET ? [any] : [] }
  }

  private concatenation(): Info {
    // Runs of exactly-known pieces join into longer literals; the best of runs and pieces is kept.
    let run: LiteralSet = ['']
    let exactAll: LiteralSet = ['']
    const all: string[][] = []
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const piece = this.repeated()
      if (piece.exact !== null) {
        const joined: LiteralSet = run === null ? piece.exact : product(run, piece.exact)
        // Too many to join: keep what the run had, and start again from this piece.
        if (joined === null && run !== null) all.push(run)
        run = joined ?? piece.exact
      } else {
        if (run !== null) all.push(run)
        all.push(...piece.all)
        run = null
      }
      exactAll = exactAll !== null && piece.exact !== null ? product(exactAll, piece.exact) : null
    }
    if (run !== null) all.push(run)
    return { exact: exactAll, all: strongest(all) }
  }

  private repeated(): Info {
    const atom = this.atom()
    const c = this.p[this.i]
    let min: number
    if (c === '*' || c === '?') {
      this.i++
      min = 0
    } else if (c === '+') {
      this.i++
      min = 1
    } else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(this.p.slice(this.i))
      if (!m) throw new GiveUp()
      this.i += m[0].length
      min = Number(m[1])
    } else return atom
    if (this.p[this.i] === '?') this.i++ // non-greedy: the same strings
    if (min === 0) return ANY
    return { exact: null, all: strongest(atom.exact ? [atom.exact, ...atom.all] : atom.all) }
  }

  private atom(): Info {
    const c = this.p[this.i++]
    if (c === '(') {
      if (this.p[this.i] === '?') {
        const m = /^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(this.p.slice(this.i))
        if (!m) throw new GiveUp() // flags and anything else
        this.i += m[0].length
      }
      const inner = this.alternation()
      if (this.p[this.i++] !== ')') throw new GiveUp()
      return inner
    }
    if (c === '[') {
      this.skipClass()
      return ANY
    }
    if (c === '.') return ANY
    if (c === '^' || c === '$') return EMPTY
    if (c === '\\') return this.escape()
    if (c === undefined || c === ')' || c === '*' || c === '+' || c === '?' || c === '{' || c === '|') throw new GiveUp()
    return this.literal(c)
  }

  private escape(): Info {
    const c = this.p[this.i++]
    if (c === undefined) throw new GiveUp()
    if ('bBAz'.includes(c)) return EMPTY
    if ('dDwWsS'.includes(c)) return ANY
    if ((c === 'p' || c === 'P') && this.p[this.i] !== '{') {
      this.i++
      return ANY
    }
    if (c === 'p' || c === 'P') {
      const end = this.p.indexOf('}', this.i)
      if (end < 0) throw new GiveUp()
      this.i = end + 1
      return ANY
    }
    if (/[A-Za-z0-9]/.test(c)) throw new GiveUp() // \x, \Q, \n, backreference-like: not read here
    return this.literal(c)
  }

  private literal(c: string): Info {
    const code = c.charCodeAt(0)
    if (code > 127) throw new GiveUp() // may fold with ASCII letters (U+017F, U+212A)
    return { exact: [c.toLowerCase()], all: [] }
  }

  /** Past a character class `[...]` (its contents decide one character, never a literal here). */
  private skipClass(): void {
    if (this.p[this.i] === '^') this.i++
    if (this.p[this.i] === ']') this.i++
    while (this.i < this.p.length && this.p[this.i] !== ']') {
      if (this.p[this.i] === '\\') this.i++
      else if (this.p.startsWith('[:', this.i)) {
        const end = this.p.indexOf(':]', this.i + 2)
        if (end < 0) throw new GiveUp()
        this.i = end + 1
      }
      this.i++
    }
    if (this.p[this.i++] !== ']') throw new GiveUp()
  }
}

/**
 * Sets of lower-cased ASCII literals such that every case-insensitive match of `pattern` contains a
 * literal of each set (in the text read as `mayMatch` reads it); null when nothing is known.
 */
export function requiredLiterals(pattern: string): string[][] | null {
  try {
    const info = new Reader(pattern).read()
    const sets = strongest(info.exact ? [info.exact, ...info.all] : info.all)
    return sets.length ? sets : null
  } catch (e) {
    if (e instanceof GiveUp) return null
    throw e
  }
}

/**
 * False when `text` cannot match: its lower case misses every literal of one of the sets. True
 * means "ask the engine". (toLowerCase maps U+212A to `k`; U+017F stays, so it is read as `s`.)
 */
export function mayMatch(sets: readonly (readonly string[])[] | null, text: string): boolean {
  return sets === null || mayMatchLower(sets, text.toLowerCase())
}

/** `mayMatch` of a text given lower-cased (`text.toLowerCase()`). */
export function mayMatchLower(sets: readonly (readonly string[])[] | null, lowered: string): boolean {
  if (sets === null) return true
  const low = lowered.includes('\u017f') ? lowered.replaceAll('\u017f', 's') : lowered
  for (const set of sets) {
    let found = false
    for (const l of set)
      if (low.includes(l)) {
        found = true
        break
      }
    if (!found) return false
  }
  return true
}
