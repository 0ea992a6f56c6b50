/**
 * A lenient reader for the OFX body, SGML (1.x: leaf elements are not closed) and XML (2.x) alike,
 * and for the hybrids banks send (an XML header on an SGML body). It builds a tree of elements:
 * a tag followed by text is a leaf (its closing tag optional); a closing tag closes every element
 * left open above its opening one. CDATA, comments, processing instructions and entities handled.
 */
import { StatementParseError } from './types.js'

export interface OfxNode {
  name: string
  /** Text of a leaf element (trimmed), else undefined. */
  text?: string
  /** Read-only: an element without children shares one empty list. */
  children: readonly OfxNode[]
  /** 1-based line of the opening tag. */
  line: number
  /** Whether the element ended before the end of the file (closing tag, its text, or an enclosing end). */
  closed: boolean
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[e.toLowerCase()] ?? whole
  })
}

/** The children of every element that has none, one list for all (a file may hold millions). */
const NONE: readonly OfxNode[] = Object.freeze([])

/**
 * Parse the OFX body (the text from the first `<`); returns the root holding the top elements.
 * One pass, each tag looked at once: an element of a name is open at most once (OFX never nests an
 * element in one of its own name), so `open` finds it without walking the stack.
 */
export function parseOfxTree(text: string, startLine: number): OfxNode {
  const root: OfxNode = { name: '#root', text: undefined, children: NONE, line: startLine, closed: true }
  const stack: OfxNode[] = [root]
  /** Where in `stack` the open element of each name is. */
  const open = new Map<string, number>()
  /** One string per element name, shared by its elements. */
  const names = new Map<string, string>()
  let line = startLine
  let i = 0
  let pendingText = ''

  /** Close the open element at `at` and everything left open inside it (closed by its end). */
  const closeFrom = (at: number | undefined) => {
    if (at === undefined || at <= 0) return
    for (let k = stack.length - 1; k >= at; k--) {
      stack[k].closed = true
      open.delete(stack[k].name)
    }
    stack.length = at
  }
  const count = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) line++
  }
  const flushText = () => {
    const value = pendingText.trim()
    pendingText = ''
    if (!value) return
    const top = stack[stack.length - 1]
    if (top === root || top.children.length > 0) return // stray text between aggregates: ignore
    top.text = value
    closeFrom(stack.length - 1)
  }

  while (i < text.length) {
    const lt = text.indexOf('<', i)
    if (lt < 0) {
      pendingText += decodeEntities(text.slice(i))
      count(i, text.length)
      break
    }
    if (lt > i) {
      pendingText += decodeEntities(text.slice(i, lt))
      count(i, lt)
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt)
      if (end < 0) throw new StatementParseError('the file ends inside a CDATA section: it looks truncated', line)
      pendingText += text.slice(lt + 9, end)
      count(lt, end + 3)
      i = end + 3
      continue
    }
    const special = text.startsWith('<!--', lt) ? '-->' : text.startsWith('<?', lt) ? '?>' : text.startsWith('<!', lt) ? '>' : undefined
    const close = special ? text.indexOf(special, lt) : text.indexOf('>', lt)
    if (close < 0) throw new StatementParseError('the file ends inside a tag: it looks truncated', line)
    const end = close + (special ? special.length : 1)
    if (special) {
      count(lt, end)
      i = end
      continue
    }
    const tag = text.slice(lt + 1, close).trim()
    const m = /^(\/?)([A-Za-z][\w.:-]*)/.exec(tag)
    if (!m) throw new StatementParseError(`"<${tag.slice(0, 30)}>" is not an OFX tag`, line)
    flushText()
    const upper = m[2].toUpperCase()
    const known = names.get(upper)
    if (known === undefined) names.set(upper, upper)
    const name = known ?? upper
    if (m[1]) {
      // A closing tag: close the open element of that name and everything left open inside it.
      // A closing tag of nothing open (the optional end tag of a leaf, or a stray one) is ignored.
      closeFrom(open.get(name))
    } else {
      // OFX never nests an element in one of its own name: a new <STMTTRN> ends an unclosed one.
      closeFrom(open.get(name))
      const node: OfxNode = { name, text: undefined, children: NONE, line, closed: false }
      const parent = stack[stack.length - 1]
      if (parent.children === NONE) parent.children = [node]
      else (parent.children as OfxNode[]).push(node)
      if (tag.endsWith('/'))
        node.closed = true // <EMPTY/>
      else {
        open.set(name, stack.length)
        stack.push(node)
      }
    }
    count(lt, end)
    i = end
  }
  flushText()
  return root
}

/** Direct children named `name`. */
export function childrenNamed(node: OfxNode, name: string): OfxNode[] {
  return node.children.filter((c) => c.name === name)
}

/**
 * Every descendant whose name is one of `names` (depth first, document order), not looking inside
 * a match. A loop over a stack of its own: a file may nest elements deeper than the call stack.
 */
export function findAll(node: OfxNode, ...names: string[]): OfxNode[] {
  const out: OfxNode[] = []
  const todo: OfxNode[] = node.children.toReversed()
  for (let n = todo.pop(); n; n = todo.pop()) {
    if (names.includes(n.name)) out.push(n)
    else for (let k = n.children.length - 1; k >= 0; k--) todo.push(n.children[k])
  }
  return out
}

/** The first descendant named `name`, breadth first (nearest wins), or undefined. */
export function find(node: OfxNode, name: string): OfxNode | undefined {
  const queue = [...node.children]
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]
    if (n.name === name) return n
    for (const c of n.children) queue.push(c)
  }
  return undefined
}

/** Text of the nearest descendant leaf named `name`. */
export function textOf(node: OfxNode, name: string): string | undefined {
  return find(node, name)?.text
}
