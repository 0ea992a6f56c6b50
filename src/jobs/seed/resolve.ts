/**
 * `${...}` references in a seed file. Two passes:
 *
 * 1. `resolveStatic` (before anything is written): environment variables (`${env.NAME}`) and
 *    generators (`${today}`, `${now}`, `${uuid}`, `${date:-30d}`) are replaced; references to the
 *    results of earlier steps (`${accounts.operating.id}`) are checked and left in place. An unset
 *    variable, an unknown generator or a reference to a step that does not come earlier is an error.
 * 2. `resolveSteps` (while seeding): step references are replaced by the results known by then.
 *
 * `$${` writes a literal `${` (unescaped by the last pass).
 */
import { randomUUID } from 'node:crypto'

/** Where the results of each kind of step are found: `${accounts.NAME.FIELD}`. */
export const NAMESPACES = ['accounts', 'transactions', 'imports', 'statements', 'keys', 'budgets', 'recurring'] as const
export type Namespace = (typeof NAMESPACES)[number]

export interface StepRef {
  ns: Namespace
  step: string
  field: string
}

export interface PathError {
  /** Dotted path inside the step (`generate.from`). */
  path: string
  message: string
}

/** A step that may be referred to, as `resolveStatic` sees the steps before the current one. */
export interface KnownStep {
  ns: Namespace
  name: string
  fields: readonly string[]
}

const TOKEN = /\$(\$)?\{([^{}]*)\}/g
const STEP_REF = /^([a-z]+)\.([A-Za-z][A-Za-z0-9_-]*)\.([a-z_]+)$/
const RELATIVE = /^date:([+-])(\d{1,5})([dwmy])$/

/** UTC calendar date of `now` moved by a number of days, weeks, months or years (months clamp to the month's end). */
export function shiftDate(now: Date, sign: 1 | -1, n: number, unit: 'd' | 'w' | 'm' | 'y'): string {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth()
  const d = now.getUTCDate()
  if (unit === 'd' || unit === 'w') {
    const days = sign * n * (unit === 'w' ? 7 : 1)
    return new Date(Date.UTC(y, m, d + days)).toISOString().slice(0, 10)
  }
  const months = sign * n * (unit === 'y' ? 12 : 1)
  const target = new Date(Date.UTC(y, m + months, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10)
}

export interface StaticContext {
  env: NodeJS.ProcessEnv
  now: Date
  /** Steps before the current one. */
  known: KnownStep[]
  uuid?: () => string
}

function isNamespace(s: string): s is Namespace {
  return (NAMESPACES as readonly string[]).includes(s)
}

/** Check a step reference against the steps before the current one. */
function checkStepRef(ref: StepRef, known: KnownStep[]): string | undefined {
  const target = known.find((k) => k.ns === ref.ns && k.name === ref.step)
  if (!target) {
    const names = known.filter((k) => k.ns === ref.ns).map((k) => k.name)
    return `\${${ref.ns}.${ref.step}.${ref.field}}: no ${ref.ns} step "${ref.step}" before this one${names.length ? ` (earlier ${ref.ns} steps: ${names.join(', ')})` : ''}`
  }
  if (!target.fields.includes(ref.field))
    return `\${${ref.ns}.${ref.step}.${ref.field}}: ${ref.ns} steps give ${target.fields.join(', ')}, not "${ref.field}"`
  return undefined
}

/** Replace env variables and generators in one string; collect step references and errors. */
function staticString(s: string, c: StaticContext, errors: string[], refs: StepRef[]): string {
  return s.replace(TOKEN, (whole, escaped: string | undefined, body: string) => {
    // Left escaped until the last pass, so that pass does not read it as a reference.
    if (escaped) return whole
    const token = body.trim()
    if (token.startsWith('env.')) {
      const name = token.slice(4)
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        errors.push(`\${${token}}: "${name}" is not an environment variable name`)
        return whole
      }
      const value = c.env[name]
      if (value === undefined) {
        errors.push(`\${env.${name}}: environment variable ${name} is not set`)
        return whole
      }
      return value
    }
    if (token === 'today') return c.now.toISOString().slice(0, 10)
    if (token === 'now') return c.now.toISOString()
    if (token === 'uuid') return (c.uuid ?? randomUUID)()
    const rel = RELATIVE.exec(token)
    if (rel) return shiftDate(c.now, rel[1] === '-' ? -1 : 1, Number(rel[2]), rel[3] as 'd')
    if (token.startsWith('date:')) {
      errors.push(`\${${token}}: write a relative date like \${date:-30d}, \${date:+2w}, \${date:-1m} or \${date:+1y}`)
      return whole
    }
    const m = STEP_REF.exec(token)
    if (m && isNamespace(m[1])) {
      const ref: StepRef = { ns: m[1], step: m[2], field: m[3] }
      const problem = checkStepRef(ref, c.known)
      if (problem) errors.push(problem)
      else refs.push(ref)
      return whole
    }
    errors.push(
      `\${${token}}: unknown reference; use \${env.NAME}, \${today}, \${now}, \${uuid}, \${date:-30d} or a result of an earlier step such as \${accounts.NAME.id} (${NAMESPACES.join(', ')})`,
    )
    return whole
  })
}

export interface StaticResult<T> {
  value: T
  /** Step references left for `resolveSteps`, with where they are. */
  refs: Array<StepRef & { path: string }>
  errors: PathError[]
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return path ? `${path}.${key}` : key
}

/** Resolve env variables and generators everywhere in a step (strings only; other values pass). */
export function resolveStatic<T>(value: T, c: StaticContext, path = ''): StaticResult<T> {
  const refs: StaticResult<T>['refs'] = []
  const errors: PathError[] = []
  const walk = (v: unknown, p: string): unknown => {
    if (typeof v === 'string') {
      const errs: string[] = []
      const found: StepRef[] = []
      const out = staticString(v, c, errs, found)
      for (const message of errs) errors.push({ path: p, message })
      for (const r of found) refs.push({ ...r, path: p })
      return out
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, join(p, i)))
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, join(p, k))]))
    return v
  }
  return { value: walk(value, path) as T, refs, errors }
}

/** The results of the steps so far: `results.accounts.operating.id`. */
export type Results = Partial<Record<Namespace, Record<string, Record<string, string | undefined>>>>

export class UnresolvedRef extends Error {
  constructor(readonly ref: StepRef) {
    super(`\${${ref.ns}.${ref.step}.${ref.field}} has no value: ${ref.ns} step "${ref.step}" did not succeed`)
  }
}

/** Replace step references with the results known now; `placeholder` stands in for a missing one (dry run). */
export function resolveSteps<T>(value: T, results: Results, placeholder?: (ref: StepRef) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.replace(TOKEN, (whole, escaped: string | undefined, body: string) => {
        if (escaped) return whole.slice(1)
        const m = STEP_REF.exec(body.trim())
        if (!m || !isNamespace(m[1])) return whole
        const ref: StepRef = { ns: m[1], step: m[2], field: m[3] }
        const got = results[ref.ns]?.[ref.step]?.[ref.field]
        if (got !== undefined) return got
        if (placeholder) return placeholder(ref)
        throw new UnresolvedRef(ref)
      })
    }
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/** The step references left in a value (after `resolveStatic`). */
export function stepRefsIn(value: unknown): StepRef[] {
  const out: StepRef[] = []
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(TOKEN)) {
        if (m[1]) continue
        const r = STEP_REF.exec(m[2].trim())
        if (r && isNamespace(r[1])) out.push({ ns: r[1], step: r[2], field: r[3] })
      }
    } else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(value)
  return out
}
