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
  children: OfxNode[]
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

/** Parse the OFX body (the text from the first `<`); returns the root holding the top elements. */
export function parseOfxTree(text: string, startLine: number): OfxNode {
  const root: OfxNode = { name: '#root', children: [], line: startLine, closed: true }
  const stack: OfxNode[] = [root]
  let line = startLine
  let i = 0
  let pendingText = ''

  /** Close the open element at `at` and everything left open inside it (closed by its end). */
  const closeFrom = (at: number) => {
    if (at <= 0) return
    for (const n of stack.slice(at)) n.closed = true
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
    top.closed = true
    stack.pop()
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
    const name = m[2].toUpperCase()
    if (m[1]) {
      // A closing tag: close the open element of that name and everything left open inside it.
      // A closing tag of nothing open (the optional end tag of a leaf, or a stray one) is ignored.
      closeFrom(stack.map((n) => n.name).lastIndexOf(name))
    } else {
      // OFX never nests an element in one of its own name: a new <STMTTRN> ends an unclosed one.
      closeFrom(stack.map((n) => n.name).lastIndexOf(name))
      const node: OfxNode = { name, children: [], line, closed: false }
      stack[stack.length - 1].children.push(node)
      if (tag.endsWith('/'))
        node.closed = true // <EMPTY/>
      else stack.push(node)
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

/** Every descendant named `name` (depth first, document order), not looking inside a match. */
export function findAll(node: OfxNode, name: string, out: OfxNode[] = []): OfxNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c)
    else findAll(c, name, out)
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
