/**
 * Reading a seed file (YAML or JSON) and checking it in full before anything is written: each step
 * against its kind's schema (schema.ts), then what a schema cannot check alone: unique step names
 * and --env-out names, references to earlier steps, files that exist, amounts in the currency of
 * the account a step refers to. Every problem is reported with its step and field.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { isAbsolute, resolve as resolvePath } from 'node:path'
import { z } from 'zod'
import { currencyExponent } from '../../kernel/currencies.js'
import { parseAmount } from '../../kernel/money.js'
import { plainMessage } from '../../domain/validation.js'
import { MAX_STATEMENT_FILE } from '../../domain/statements/schemas.js'
import { amountBounds } from './generate.js'
import { resolveStatic, resolveSteps, stepRefsIn, type KnownStep, type Results, type StepRef } from './resolve.js'
import {
  KINDS,
  StepName,
  envName,
  type AccountSpec,
  type BudgetSpec,
  type RecurringSpec,
  type AnyStep,
  type ImportSpec,
  type Kind,
  type Seed,
  type StatementSpec,
  type TransactionsSpec,
} from './schema.js'

const KIND_NAMES = Object.keys(KINDS) as Kind[]
/** Kinds planned but not available yet. */
const LATER: Record<string, string> = {
  rules: 'a seed file cannot hold rules yet: create them with `finctl rules create` (the service has them; the seed does not)',
}

/** Stand-in values for step references while validating (the real ones exist only while seeding). */
function placeholder(currencies: Map<string, string>) {
  return (ref: StepRef): string => {
    if (ref.field === 'id') return '00000000-0000-4000-8000-000000000000'
    if (ref.field === 'currency_code') return currencies.get(ref.step) ?? 'USD'
    if (['count', 'read', 'created'].includes(ref.field)) return '1'
    return `${ref.ns}-${ref.step}-${ref.field}`
  }
}

function issuePath(path: PropertyKey[]): string {
  return path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${String(k)}` : String(k)), '')
}

export interface ValidateContext {
  env: NodeJS.ProcessEnv
  now: Date
  /** The seed file's path: files of import and statement steps are relative to its folder. */
  path: string
}

export class SeedInvalid extends Error {
  constructor(readonly problems: Array<{ path: string; message: string }>) {
    super(`the seed file is not valid (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'})`)
  }
}

/** Check the whole file; throws SeedInvalid listing every problem, naming step and field. */
export function validateSeed(input: unknown, c: ValidateContext): Seed {
  const dir = resolvePath(c.path, '..')
  const problems: Array<{ path: string; message: string }> = []
  const top = z
    .object({
      $schema: z.string().optional(),
      version: z.literal(1, 'must be 1').optional(),
      description: z.string().optional(),
      steps: z.array(z.unknown()).min(1, 'give at least one step').max(1000),
    })
    .strict()
    .safeParse(input)
  if (!top.success) throw new SeedInvalid(top.error.issues.map((i) => ({ path: issuePath(i.path) || '(file)', message: plainMessage(i) })))

  const known: KnownStep[] = []
  const currencies = new Map<string, string>()
  const envNames = new Map<string, string>()
  const steps: AnyStep[] = []
  top.data.steps.forEach((item, index) => {
    const at = `steps[${index}]`
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ path: at, message: 'must be an object such as { "account": "operating", ... }' })
      return
    }
    const obj = item as Record<string, unknown>
    const kinds = KIND_NAMES.filter((k) => k in obj)
    const later = Object.keys(LATER).find((k) => k in obj)
    if (kinds.length !== 1) {
      if (later && kinds.length === 0) problems.push({ path: at, message: LATER[later] })
      else
        problems.push({
          path: at,
          message: kinds.length
            ? `holds ${kinds.join(' and ')}: a step is of one kind`
            : `name the step's kind and name with one of ${KIND_NAMES.map((k) => `${k}: NAME`).join(', ')}`,
        })
      return
    }
    const kind = kinds[0]
    const def = KINDS[kind]
    const name = obj[kind]
    const nameOk = StepName.safeParse(name)
    if (!nameOk.success) {
      problems.push({ path: `${at}.${kind}`, message: `the step name ${plainMessage(nameOk.error.issues[0])}` })
      return
    }
    const label = `${at} (${kind} "${nameOk.data}")`
    const fail = (path: string, message: string) => problems.push({ path: path ? `${label} ${path}` : label, message })
    if (known.some((k) => k.name === nameOk.data)) {
      fail(kind, `another step is named "${nameOk.data}": step names are unique in a file`)
      return
    }
    const st = resolveStatic(obj, { env: c.env, now: c.now, known })
    for (const e of st.errors) fail(e.path, e.message)
    const shaped = resolveSteps(st.value, {} as Results, placeholder(currencies))
    const parsed = (def.schema as z.ZodType).safeParse(shaped)
    // A field whose reference could not be resolved is reported once, for the reference.
    const unresolved = st.errors.map((e) => e.path)
    if (!parsed.success) {
      for (const i of parsed.error.issues) {
        const p = issuePath(i.path)
        if (
          !unresolved.some(
            (u) => p === u || u.startsWith(`${p}.`) || u.startsWith(`${p}[`) || p.startsWith(`${u}.`) || p.startsWith(`${u}[`),
          )
        )
          fail(p, plainMessage(i))
      }
    }
    for (const field of def.fields) {
      const env = envName(def.ns, nameOk.data, field)
      const other = envNames.get(env)
      if (other && other !== nameOk.data) fail(kind, `"${nameOk.data}" and "${other}" give the same --env-out name ${env}: rename one`)
      envNames.set(env, nameOk.data)
    }
    known.push({ ns: def.ns, name: nameOk.data, fields: def.fields })
    const step = { kind, ns: def.ns, name: nameOk.data, index, label, raw: st.value, refs: stepRefsIn(st.value) } as AnyStep
    if (!parsed.success) return
    checkStep(step, parsed.data, { dir, currencies, fail })
    steps.push(step)
  })
  if (problems.length) throw new SeedInvalid(problems)
  return { path: c.path, dir, steps }
}

/** Checks a schema cannot make: files, amounts in the account's currency. */
function checkStep(
  step: AnyStep,
  spec: unknown,
  o: { dir: string; currencies: Map<string, string>; fail: (path: string, message: string) => void },
): void {
  const currencyOf = (account: unknown): string | undefined => {
    const m = /^\$\{accounts\.([A-Za-z0-9_-]+)\.id\}$/.exec(String(account))
    return m ? o.currencies.get(m[1]) : undefined
  }
  switch (step.kind) {
    case 'account': {
      const s = spec as AccountSpec
      if (!stepRefsIn(step.raw.currency_code).length) o.currencies.set(step.name, s.currency_code)
      if (s.opening_balance !== undefined) {
        const r = parseAmount(s.opening_balance, currencyExponent(s.currency_code))
        if (!r.ok) o.fail('opening_balance', r.message)
      }
      return
    }
    case 'transactions': {
      const s = spec as TransactionsSpec
      step.currency = currencyOf(step.raw.bank_account_id)
      if (!step.currency) return
      const exp = currencyExponent(step.currency)
      if (s.generate) {
        const b = amountBounds(s.generate.amount, exp)
        if ('error' in b) o.fail(b.path, b.error)
      }
      s.items?.forEach((item, i) => {
        const r = parseAmount(item.amount, currencyExponent(item.currency_code ?? step.currency!))
        if (!r.ok) o.fail(`items[${i}].amount`, r.message)
      })
      return
    }
    case 'import':
    case 'statement': {
      const s = spec as ImportSpec | StatementSpec
      const file = isAbsolute(s.file) ? s.file : resolvePath(o.dir, s.file)
      if (!existsSync(file) || !statSync(file).isFile()) {
        o.fail('file', `no such file: ${file}`)
        return
      }
      if (!readable(file)) {
        o.fail('file', `cannot read ${file}: permission denied`)
        return
      }
      if (step.kind === 'statement' && statSync(file).size > MAX_STATEMENT_FILE) o.fail('file', `${file} is larger than 20 MiB`)
      step.file = file
      step.currency = currencyOf(step.raw.bank_account_id)
      return
    }
    case 'api_key':
      return
    case 'budget': {
      const s = spec as BudgetSpec
      if (s.from !== undefined && s.to !== undefined && s.to < s.from) o.fail('to', `is before from (${s.from})`)
      const r = parseAmount(s.monthly, currencyExponent(s.currency ?? 'USD'))
      if (!r.ok && s.currency !== undefined) o.fail('monthly', r.message)
      return
    }
    case 'recurring': {
      const s = spec as RecurringSpec
      if (s.ends_on !== undefined && s.ends_on < s.start) o.fail('ends_on', `is before start (${s.start})`)
      if (s.currency !== undefined) {
        const r = parseAmount(s.amount, currencyExponent(s.currency))
        if (!r.ok) o.fail('amount', r.message)
      }
      return
    }
  }
}

/** Read a seed file: YAML for .yaml / .yml, JSON otherwise. */
export async function parseSeedText(text: string, path: string): Promise<unknown> {
  if (/\.ya?ml$/i.test(path)) {
    // yaml is CommonJS for Node: bundled, its functions are on the default export.
    const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') }
    const parseDocument = mod.parseDocument ?? mod.default!.parseDocument
    const doc = parseDocument(text, { prettyErrors: true })
    if (doc.errors.length)
      throw new SeedInvalid(doc.errors.map((e) => ({ path: `line ${e.linePos?.[0].line ?? '?'}`, message: e.message.split('\n')[0] })))
    return doc.toJS()
  }
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new SeedInvalid([{ path: '(file)', message: `not valid JSON: ${(e as Error).message}` }])
  }
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK)
    return true
  } catch {
    return false
  }
}
