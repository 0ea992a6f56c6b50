/**
 * finctl completion bash|zsh|fish, and the hidden `finctl __complete WORDS...` the scripts call
 * on each Tab. Candidates come from the commander program tree at that moment (so every command,
 * including ones added later, completes without regenerating the script), profile names from the
 * profiles file, and enum values from the domain's lists.
 *
 * Protocol of `__complete`: one candidate per line (`value<TAB>description`), then a last line
 * `:N`, N a bit set: 1 = nothing known here, let the shell complete file names; 2 = add no space.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Argument, type Command, type Option } from 'commander'
import type { Runner } from '../src/cli/runner.js'
import type { IO } from '../src/cli/io.js'
import { configDir } from '../src/cli/profiles.js'
import { JSON_FIELDS, isFieldsWord } from '../src/cli/json-shape.js'
import { CURRENCY_CODES } from '../src/kernel/currencies.js'
import { INTERVALS } from '../src/domain/reports/periods.js'
import {
  ACCOUNTING_CATEGORIES,
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
  API_KEY_SCOPES,
  CASH_FLOW_CATEGORIES,
  TRANSACTION_STATUSES,
} from '../src/kernel/vocabulary.js'
import { API_METHODS } from './api.js'
import { HELP_TOPICS } from './help-topics.js'
import { bashScript, fishScript, zshScript } from '../src/cli/completion-scripts.js'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
const FILES = 1
const NO_SPACE = 2

export function registerCompletion(program: Command, run: Runner): void {
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .description('print a shell script that completes commands, flags, profile names and values')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  finctl completion bash > ~/.local/share/bash-completion/completions/finctl',
        "  echo 'source <(finctl completion bash)' >> ~/.bashrc",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh parameter, shown to the user
        '  finctl completion zsh > "${fpath[1]}/_finctl"        # then: autoload -U compinit && compinit',
        '  finctl completion fish > ~/.config/fish/completions/finctl.fish',
        '',
      ].join('\n'),
    )
    .action(
      run(async (ctx, _o, [shell]) => {
        ctx.io.stdout.write(shell === 'zsh' ? zshScript() : shell === 'fish' ? fishScript() : bashScript())
        return 0
      }),
    )
}

export interface Candidate {
  value: string
  description?: string
}

/** `finctl __complete [--] WORDS...`: the last word is the one being completed (maybe empty). */
export function complete(program: Command, argv: string[], io: IO): number {
  const { items, directive } = completions(program, argv[0] === '--' ? argv.slice(1) : argv, io.env)
  const lines = items.map((c) => (c.description ? `${c.value}\t${c.description.split('\n')[0]}` : c.value))
  io.stdout.write(`${[...lines, `:${directive}`].join('\n')}\n`)
  return 0
}

export function completions(program: Command, words: string[], env: NodeJS.ProcessEnv): { items: Candidate[]; directive: number } {
  const current = words.length > 0 ? words[words.length - 1] : ''
  let cmd = program
  let positional = 0
  let pending: Option | undefined
  let operandsOnly = false
  let afterJson = false
  for (const w of words.slice(0, -1)) {
    // --json takes FIELDS only where the program would (src/cli/program.ts jsonFieldArgs).
    if (afterJson && w === '=') continue
    const fieldsOfJson = afterJson && !findCommand(cmd, w) && isFieldsWord(w, cmd.registeredArguments.length > 0)
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
      const opt = findOption(cmd, w)
      if ((opt?.required || opt?.optional) && w !== '--json') pending = opt
      continue
    }
    const sub = !operandsOnly && positional === 0 ? findCommand(cmd, w) : undefined
    if (sub) cmd = sub
    else positional++
  }

  if (pending) return optionValues(cmd, pending, current, env)
  const fields = JSON_FIELDS[commandPath(cmd)]
  if (afterJson && fields && !current.startsWith('-')) return listValues(fields, current)
  if (current.startsWith('-') && !operandsOnly) {
    if (current.includes('=')) return { items: [], directive: 0 }
    return { items: byPrefix(allOptions(cmd), current), directive: 0 }
  }
  const items: Candidate[] = []
  if (positional === 0) {
    for (const sub of cmd.commands) if (!isHidden(sub)) items.push({ value: sub.name(), description: sub.description() })
  }
  const args = cmd.registeredArguments
  const arg = args[positional] ?? (args.length > 0 && args[args.length - 1].variadic ? args[args.length - 1] : undefined)
  let known = cmd.commands.length > 0
  if (arg) {
    const values = argumentValues(program, cmd, arg, positional, env)
    if (values) {
      known = true
      items.push(...values)
    }
  }
  return { items: byPrefix(items, current), directive: known || !arg ? 0 : FILES }
}

function isHidden(c: Command): boolean {
  return Boolean((c as unknown as { _hidden?: boolean })._hidden)
}

function findCommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name))
}

function ancestry(cmd: Command): Command[] {
  const chain: Command[] = []
  for (let c: Command | null = cmd; c; c = c.parent) chain.push(c)
  return chain
}

function findOption(cmd: Command, flag: string): Option | undefined {
  for (const c of ancestry(cmd)) {
    const o = c.options.find((opt) => opt.long === flag || opt.short === flag)
    if (o) return o
  }
  return undefined
}

function allOptions(cmd: Command): Candidate[] {
  const seen = new Set<string>()
  const out: Candidate[] = []
  for (const c of ancestry(cmd)) {
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

/** "keys list" for the command `finctl keys list`. */
function commandPath(cmd: Command): string {
  return ancestry(cmd)
    .reverse()
    .slice(1)
    .map((c) => c.name())
    .join(' ')
}

export function profileNames(env: NodeJS.ProcessEnv): string[] {
  try {
    const file = JSON.parse(readFileSync(join(configDir(env), 'profiles.json'), 'utf8')) as { profiles?: Record<string, unknown> }
    return Object.keys(file.profiles ?? {}).sort()
  } catch {
    return []
  }
}

const KEY_STATUSES = ['active', 'revoked', 'expired', 'all']
const STATEMENT_STATUSES = ['pending', 'processing', 'completed', 'failed']
const STATEMENT_FORMATS = ['csv', 'ofx', 'qfx', 'qif', 'camt053', 'mt940']
const SORTS = ['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at']
const API_PATHS = [
  '/healthz',
  '/auth/token',
  '/api-keys',
  '/api-keys/me',
  '/api-keys/me/usage',
  '/api-v1/company',
  '/api-v1/categories',
  '/api-v1/bank-accounts',
  '/api-v1/transactions',
  '/api-v1/transactions/batch',
  '/api-v1/transactions/bulk-update',
  '/api-v1/statements',
  '/api-v1/reports/cash-flow',
  '/api-v1/reports/summary',
]

/** The values an option takes, by its flag (and, for --status, by the command). */
function valuesOf(cmd: Command, opt: Option, env: NodeJS.ProcessEnv): { values: readonly string[]; list?: boolean } | undefined {
  if (opt.argChoices) return { values: opt.argChoices }
  const path = commandPath(cmd)
  switch (opt.long) {
    case '--profile':
    case '--save-profile':
      return { values: profileNames(env) }
    case '--scopes':
      return { values: API_KEY_SCOPES, list: true }
    case '--status':
      if (path.startsWith('keys')) return { values: KEY_STATUSES }
      if (path === 'statements list') return { values: STATEMENT_STATUSES }
      if (path === 'accounts list' || path === 'accounts update') return { values: ACCOUNT_STATUSES }
      return { values: TRANSACTION_STATUSES }
    case '--type':
      return { values: ACCOUNT_TYPES }
    case '--interval':
      return { values: INTERVALS }
    case '--cash-flow-category':
      return { values: CASH_FLOW_CATEGORIES }
    case '--accounting-category':
      return { values: ACCOUNTING_CATEGORIES }
    case '--currency':
      return { values: CURRENCY_CODES }
    case '--reconciled':
      return { values: ['true', 'false'] }
    case '--sort':
      return { values: SORTS }
    case '--format':
      return path.startsWith('statements') ? { values: STATEMENT_FORMATS } : undefined
    default:
      return undefined
  }
}

function optionValues(cmd: Command, opt: Option, current: string, env: NodeJS.ProcessEnv): { items: Candidate[]; directive: number } {
  const known = valuesOf(cmd, opt, env)
  if (!known) return { items: [], directive: /file|path|json|dir/i.test(opt.flags) ? FILES : 0 }
  if (!known.list)
    return {
      items: byPrefix(
        known.values.map((value) => ({ value })),
        current,
      ),
      directive: 0,
    }
  return listValues(known.values, current)
}

/** A comma-separated list: complete the last element, keep what is written, offer each value once. */
function listValues(values: readonly string[], current: string): { items: Candidate[]; directive: number } {
  const cut = current.lastIndexOf(',') + 1
  const head = current.slice(0, cut)
  const chosen = new Set(head.split(',').filter(Boolean))
  const items = values.filter((v) => !chosen.has(v)).map((v) => ({ value: head + v }))
  return { items: byPrefix(items, current), directive: NO_SPACE }
}

function argumentValues(program: Command, cmd: Command, arg: Argument, index: number, env: NodeJS.ProcessEnv): Candidate[] | undefined {
  if (arg.argChoices) return arg.argChoices.map((value) => ({ value }))
  const path = commandPath(cmd)
  if (/^profile (use|show|remove|protect|unprotect)$/.test(path)) return profileNames(env).map((value) => ({ value }))
  if (path === 'help') {
    if (index > 0) return []
    return [
      ...HELP_TOPICS.map((t) => ({ value: t.name, description: t.summary })),
      ...program.commands
        .filter((c) => !isHidden(c) && c.name() !== 'help')
        .map((c) => ({ value: c.name(), description: c.description() })),
    ]
  }
  if (path === 'api') return (index === 0 ? API_METHODS : API_PATHS).map((value) => ({ value }))
  return undefined
}
