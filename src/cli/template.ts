/**
 * `--template`: a small subset of Go's text/template (as gh's --template), over the JSON a command
 * prints. Actions: `{{.}}`, `{{.field.sub}}`, `{{"text"}}`, pipes into functions (`{{.name | upper}}`),
 * `{{range PIPE}}...{{else}}...{{end}}`, `{{if PIPE}}...{{else}}...{{end}}`, `{{-`/`-}}` trimming.
 * The syntax and functions: docs/scripting.md. Errors are usage errors naming --template.
 *
 * It cannot loop: no recursion, no variables, and each action walks the data it is given once, so
 * its time and output grow with the data and the template (a width at most MAX_WIDTH); unlike
 * --jq, it needs no thread or time limit.
 */
import { AppError } from '../kernel/errors.js'

type Node = { kind: 'text'; text: string } | { kind: 'print'; pipe: Pipe } | { kind: 'range' | 'if'; pipe: Pipe; body: Node[]; alt: Node[] }

/** A value (a path from `.` or a quoted string or a number) and the functions it passes through. */
interface Pipe {
  value: Arg
  calls: Array<{ name: string; args: Arg[] }>
}

type Arg = { path: string[] } | { literal: string | number }

const FUNCTIONS: Record<string, (v: unknown, ...args: Array<string | number>) => unknown> = {
  upper: (v) => text(v).toUpperCase(),
  lower: (v) => text(v).toLowerCase(),
  json: (v) => JSON.stringify(v),
  /** Padded with spaces on the right (a left-aligned column) or left (`rjust`) to a width. */
  ljust: (v, w) => text(v).padEnd(width('ljust', w)),
  rjust: (v, w) => text(v).padStart(width('rjust', w)),
  /** Cut to at most a width, the last character an ellipsis when cut. */
  truncate: (v, w) => {
    const s = text(v)
    const n = width('truncate', w)
    return s.length <= n ? s : `${s.slice(0, Math.max(0, n - 1))}…`
  },
  join: (v, sep) => (Array.isArray(v) ? v.map(text).join(String(sep ?? ',')) : text(v)),
  len: (v) => (Array.isArray(v) ? v.length : typeof v === 'object' && v !== null ? Object.keys(v).length : text(v).length),
  default: (v, d) => (v === null || v === undefined || v === '' ? d : v),
}

export const TEMPLATE_FUNCTIONS = Object.keys(FUNCTIONS)

/** A column wider than a screen is a mistake, and an unbounded one could fill the memory. */
const MAX_WIDTH = 10_000

function width(fn: string, w: string | number | undefined): number {
  const n = Number(w)
  if (!Number.isInteger(n) || n < 0 || n > MAX_WIDTH) throw bad(`${fn} takes a width from 0 to ${MAX_WIDTH}, not ${w}`)
  return n
}

function text(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

function bad(message: string): AppError {
  return new AppError('usage', `--template: ${message}`)
}

/** Split an action's words: quoted strings whole, `|` a word of its own. */
function words(action: string): string[] {
  const out: string[] = []
  const re = /\s*("(?:[^"\\]|\\.)*"|\||[^\s|"]+)/gy
  let end = 0
  for (let m = re.exec(action); m; m = re.exec(action)) {
    out.push(m[1])
    end = re.lastIndex
  }
  if (action.slice(end).trim()) throw bad(`cannot read "${action.trim()}"`)
  return out
}

function arg(word: string): Arg {
  if (word.startsWith('"')) {
    try {
      return { literal: JSON.parse(word) as string }
    } catch {
      throw bad(`bad string ${word}`)
    }
  }
  if (/^-?\d+(\.\d+)?$/.test(word)) return { literal: Number(word) }
  if (word === '.') return { path: [] }
  if (/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(word)) return { path: word.slice(1).split('.') }
  throw bad(`"${word}" is not a field (.name), a "string" or a number`)
}

function pipe(ws: string[]): Pipe {
  const parts: string[][] = [[]]
  for (const w of ws) {
    if (w === '|') parts.push([])
    else parts[parts.length - 1].push(w)
  }
  if (parts.some((p) => p.length === 0)) throw bad('an empty part of a pipe')
  const [first, ...rest] = parts
  if (first.length !== 1) throw bad(`"${first.join(' ')}": one value before the first |`)
  const calls = rest.map(([name, ...args]) => {
    if (!FUNCTIONS[name]) throw bad(`no function "${name}"; there are ${TEMPLATE_FUNCTIONS.join(', ')}`)
    return { name, args: args.map(arg) }
  })
  return { value: arg(first[0]), calls }
}

/** The template as a tree; a usage error naming --template when it is not one. */
export function parseTemplate(source: string): Node[] {
  const root: Node[] = []
  const stack: Array<{ node: Extract<Node, { kind: 'range' | 'if' }>; inAlt: boolean }> = []
  const target = () => {
    const top = stack[stack.length - 1]
    return top ? (top.inAlt ? top.node.alt : top.node.body) : root
  }
  const re = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g
  let last = 0
  let trimNext = false
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let before = source.slice(last, m.index)
    if (trimNext) before = before.replace(/^\s+/, '')
    if (m[1]) before = before.replace(/\s+$/, '')
    if (before) target().push({ kind: 'text', text: before })
    trimNext = Boolean(m[3])
    last = re.lastIndex
    const ws = words(m[2])
    const head = ws[0]
    if (head === 'range' || head === 'if') {
      const node = { kind: head, pipe: pipe(ws.slice(1)), body: [], alt: [] } as Extract<Node, { kind: 'range' | 'if' }>
      target().push(node)
      stack.push({ node, inAlt: false })
    } else if (head === 'else' || head === 'end') {
      const top = stack[stack.length - 1]
      if (!top) throw bad(`{{${head}}} without {{range}} or {{if}}`)
      if (ws.length > 1) throw bad(`{{${head}}} takes nothing after it`)
      if (head === 'else') {
        if (top.inAlt) throw bad('two {{else}} in one block')
        top.inAlt = true
      } else stack.pop()
    } else if (head === undefined) throw bad('an empty {{ }}')
    else target().push({ kind: 'print', pipe: pipe(ws) })
  }
  let rest = source.slice(last)
  if (trimNext) rest = rest.replace(/^\s+/, '')
  if (rest) root.push({ kind: 'text', text: rest })
  if (stack.length) throw bad(`{{${stack[stack.length - 1].node.kind}}} without {{end}}`)
  return root
}

function lookup(dot: unknown, a: Arg): unknown {
  if ('literal' in a) return a.literal
  let v = dot
  for (const key of a.path) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined
  return v
}

function evaluate(p: Pipe, dot: unknown): unknown {
  let v = lookup(dot, p.value)
  for (const c of p.calls) v = FUNCTIONS[c.name](v, ...c.args.map((a) => lookup(dot, a) as string | number))
  return v
}

/** Go's truth: false, 0, null, "" and empty lists or objects are false. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0
  return Boolean(v)
}

function render(nodes: Node[], dot: unknown): string {
  let out = ''
  for (const n of nodes) {
    if (n.kind === 'text') out += n.text
    else if (n.kind === 'print') out += text(evaluate(n.pipe, dot))
    else if (n.kind === 'if') out += render(truthy(evaluate(n.pipe, dot)) ? n.body : n.alt, dot)
    else {
      const v = evaluate(n.pipe, dot)
      const items = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : []
      out += items.length ? items.map((item) => render(n.body, item)).join('') : render(n.alt, dot)
    }
  }
  return out
}

/** The template applied to `data`. */
export function runTemplate(source: string, data: unknown): string {
  return render(parseTemplate(source), data)
}
