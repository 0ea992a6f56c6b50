/**
 * The answer to `finctl __complete WORDS...` over the command tree as plain data: every command,
 * its flags, its arguments and the values each takes, worked out beforehand from the commander
 * program (commands/completion.ts, `completionTree`). The build writes that tree to
 * dist/completion-tree.json, so that a Tab is answered by completion-cached.ts without loading the
 * program; without the file, the program builds the same tree itself. Profile names are looked
 * up at the time of the request (`'profiles'`, `'aliases'`), and so are account and category names
 * (`'accounts'`, `'categories'`): those need the service, so the cached answer leaves them to the
 * program (completeFromTree: undefined).
 *
 * Protocol: one candidate per line (`value<TAB>description`), then a last line `:N`, N a bit set:
 * 1 = nothing known here, let the shell complete file names; 2 = add no space.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { configDir } from './config-dir.js'
import { isFieldsWord } from './json-shape.js'

export interface Candidate {
  value: string
  description?: string
}

/**
 * Values known in advance, or names at the time of the request: profiles and aliases from the
 * profile file, bank accounts and categories from the service.
 */
export type Values = readonly Candidate[] | 'profiles' | 'aliases' | 'accounts' | 'categories'

/** Names looked up from the service for this request; undefined: not looked up (yet). */
export interface Lookups {
  accounts?: readonly string[]
  categories?: readonly string[]
}

/** Thrown inside completions() when names of the service are needed and were not looked up. */
const NEEDS_LOOKUP = Symbol('needs a lookup')

export interface TreeOption {
  long?: string
  short?: string
  description: string
  hidden?: boolean
  /** It takes a value (required or optional). */
  takesValue?: boolean
  /** The values it takes; `list`: a comma-separated list of them. */
  values?: Values
  list?: boolean
  /** No values known, and its flags speak of a file, path, JSON or folder: the shell completes file names. */
  files?: boolean
}

export interface TreeArgument {
  variadic?: boolean
  /** The values at its own position; undefined when none are known. */
  values?: Values
  /** A variadic argument's values at the positions after its own. */
  more?: Values
}

export interface TreeCommand {
  name: string
  aliases?: string[]
  /** The first line of its description. */
  description: string
  hidden?: boolean
  options: TreeOption[]
  args: TreeArgument[]
  commands: TreeCommand[]
  /** The fields `--json FIELDS` may name for it (src/cli/json-shape.ts). */
  fields?: readonly string[]
}

const FILES = 1
const NO_SPACE = 2

/**
 * `finctl __complete [--] WORDS...`: the last word is the one being completed (maybe empty).
 * Undefined, and nothing written, when the answer needs account names and `lookups` has none.
 */
export function completeFromTree(
  tree: TreeCommand,
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: { write(s: string): unknown },
  lookups: Lookups = {},
): number | undefined {
  let answer: { items: Candidate[]; directive: number }
  try {
    answer = completions(tree, argv[0] === '--' ? argv.slice(1) : argv, env, lookups)
  } catch (e) {
    if (e === NEEDS_LOOKUP) return undefined
    throw e
  }
  const { items, directive } = answer
  const lines = items.map((c) => (c.description ? `${c.value}\t${c.description.split('\n')[0]}` : c.value))
  out.write(`${[...lines, `:${directive}`].join('\n')}\n`)
  return 0
}

export function completions(
  tree: TreeCommand,
  words: string[],
  env: NodeJS.ProcessEnv,
  lookups: Lookups = {},
): { items: Candidate[]; directive: number } {
  const typed = words.length > 0 ? words[words.length - 1] : ''
  // bash hands the word as typed: `Chase\ Ch`, `"Chase Ch` (names may have spaces).
  const current = typed.replace(/^["']/, '').replace(/\\(.)/g, '$1')
  // The command and its ancestors, the command first.
  const chain: TreeCommand[] = [tree]
  let positional = 0
  let pending: TreeOption | undefined
  let operandsOnly = false
  let afterJson = false
  for (const w of words.slice(0, -1)) {
    const cmd = chain[0]
    // --json takes FIELDS only where the program would (src/cli/program.ts jsonFieldArgs).
    if (afterJson && w === '=') continue
    const fieldsOfJson = afterJson && !findCommand(cmd, w) && isFieldsWord(w, cmd.args.length > 0)
    afterJson = !operandsOnly && w === '--json'
    if (fieldsOfJson) continue
    // bash splits `--output=json` into `--output`, `=`, `json` (COMP_WORDBREAKS): the value follows `=`.
    if (pending && w === '=') continue
    if (pending) {
      pending = undefined
      continue
    }
    if (!operandsOnly && w === '--') {
      operandsOnly = true
      continue
    }
    if (!operandsOnly && w.startsWith('-') && w.length > 1) {
      if (w.includes('=')) continue
      const opt = findOption(chain, w)
      if (opt?.takesValue && w !== '--json') pending = opt
      continue
    }
    const sub = !operandsOnly && positional === 0 ? findCommand(cmd, w) : undefined
    if (sub) chain.unshift(sub)
    else positional++
  }

  const cmd = chain[0]
  if (pending) return optionValues(pending, current, env, lookups)
  if (afterJson && cmd.fields && !current.startsWith('-')) return listValues(cmd.fields, current)
  if (current.startsWith('-') && !operandsOnly) {
    if (current.includes('=')) return { items: [], directive: 0 }
    return { items: byPrefix(allOptions(chain), current), directive: 0 }
  }
  const items: Candidate[] = []
  if (positional === 0) {
    for (const sub of cmd.commands) if (!sub.hidden) items.push({ value: sub.name, description: sub.description })
    // The user's aliases stand where a command does (aliases.ts).
    if (cmd === tree) for (const name of namesInProfileFile(env, 'aliases')) items.push({ value: name, description: 'alias' })
  }
  const args = cmd.args
  const last = args.length > 0 && args[args.length - 1].variadic ? args[args.length - 1] : undefined
  const arg = args[positional] ?? last
  let known = cmd.commands.length > 0
  if (arg) {
    const values = args[positional] ? arg.values : arg.more
    if (values) {
      known = true
      items.push(...resolve(values, env, lookups))
    }
  }
  return { items: byPrefix(items, current), directive: known || !arg ? 0 : FILES }
}

function findCommand(cmd: TreeCommand, name: string): TreeCommand | undefined {
  return cmd.commands.find((c) => c.name === name || (c.aliases?.includes(name) ?? false))
}

function findOption(chain: TreeCommand[], flag: string): TreeOption | undefined {
  for (const c of chain) {
    const o = c.options.find((opt) => opt.long === flag || opt.short === flag)
    if (o) return o
  }
  return undefined
}

function allOptions(chain: TreeCommand[]): Candidate[] {
  const seen = new Set<string>()
  const out: Candidate[] = []
  for (const c of chain) {
    for (const o of c.options) {
      const flag = o.long ?? o.short
      if (!flag || o.hidden || seen.has(flag)) continue
      seen.add(flag)
      out.push({ value: flag, description: o.description })
    }
  }
  out.push({ value: '--help', description: 'show help for the command' })
  return out
}

function byPrefix(items: Candidate[], prefix: string): Candidate[] {
  const seen = new Set<string>()
  return items.filter((c) => c.value.startsWith(prefix) && !seen.has(c.value) && seen.add(c.value))
}

function resolve(values: Values, env: NodeJS.ProcessEnv, lookups: Lookups): readonly Candidate[] {
  if (values === 'accounts' || values === 'categories') {
    const names = lookups[values]
    if (!names) throw NEEDS_LOOKUP
    return names.map((value) => ({ value }))
  }
  if (values === 'profiles') return profileNames(env).map((value) => ({ value }))
  if (values === 'aliases') return namesInProfileFile(env, 'aliases').map((value) => ({ value }))
  return values
}

export function profileNames(env: NodeJS.ProcessEnv): string[] {
  return namesInProfileFile(env, 'profiles')
}

function namesInProfileFile(env: NodeJS.ProcessEnv, key: 'profiles' | 'aliases'): string[] {
  try {
    const file = JSON.parse(readFileSync(join(configDir(env), 'profiles.json'), 'utf8')) as Record<string, Record<string, unknown>>
    return Object.keys(file[key] ?? {}).sort()
  } catch {
    return []
  }
}

function optionValues(
  opt: TreeOption,
  current: string,
  env: NodeJS.ProcessEnv,
  lookups: Lookups,
): { items: Candidate[]; directive: number } {
  if (!opt.values) return { items: [], directive: opt.files ? FILES : 0 }
  const values = resolve(opt.values, env, lookups)
  if (!opt.list) return { items: byPrefix([...values], current), directive: 0 }
  return listValues(
    values.map((v) => v.value),
    current,
  )
}

/** A comma-separated list: complete the last element, keep what is written, offer each value once. */
function listValues(values: readonly string[], current: string): { items: Candidate[]; directive: number } {
  const cut = current.lastIndexOf(',') + 1
  const head = current.slice(0, cut)
  const chosen = new Set(head.split(',').filter(Boolean))
  const items = values.filter((v) => !chosen.has(v)).map((v) => ({ value: head + v }))
  return { items: byPrefix(items, current), directive: NO_SPACE }
}
