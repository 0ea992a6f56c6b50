/**
 * finctl completion bash|zsh|fish, and the hidden `finctl __complete WORDS...` the scripts call
 * on each Tab. Candidates come from the commander program tree (so every command, including ones
 * added later, completes without regenerating the script), profile names from the profiles file,
 * and enum values from the domain's lists. `completionTree` turns the program into the plain tree
 * that src/cli/completion-tree.ts answers from; the build writes it to dist/completion-tree.json,
 * which the launcher answers a Tab from without loading the program (src/cli/completion-cached.ts).
 */
import { Argument, type Command, type Option } from 'commander'
import type { Runner } from '../src/cli/runner.js'
import { PassThrough } from 'node:stream'
import { Context, type GlobalOptions } from '../src/cli/context.js'
import type { IO } from '../src/cli/io.js'
import { JSON_FIELDS } from '../src/cli/json-shape.js'
import {
  type Candidate,
  type TreeArgument,
  type TreeCommand,
  type TreeOption,
  type Values,
  completeFromTree,
} from '../src/cli/completion-tree.js'
import { CURRENCY_CODES } from '../src/kernel/currencies.js'
import { STATEMENT_FORMATS, STATEMENT_STATUSES } from '../src/kernel/statement-formats.js'
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

/**
 * `finctl __complete [--] WORDS...` answered from the program itself (no cached tree, or account
 * names wanted: those are asked of the profile's target, as kubectl completes a pod's name).
 */
export async function complete(program: Command, argv: string[], io: IO): Promise<number> {
  const tree = completionTree(program)
  const code = completeFromTree(tree, argv, io.env, io.stdout)
  if (code !== undefined) return code
  return completeFromTree(tree, argv, io.env, io.stdout, await serviceNames(argv, io)) ?? 0
}

/** A Tab waits no longer for the service: past it, no names. */
const LOOKUP_MS = 2000

/** The bank accounts' and categories' names on the target the words name (--profile, --base-url); none when it cannot be asked. */
async function serviceNames(words: string[], io: IO): Promise<{ accounts: string[]; categories: string[] }> {
  const none = { accounts: [], categories: [] }
  const globals: GlobalOptions = { input: false, quiet: true }
  const flags = { '--profile': 'profile', '--base-url': 'baseUrl', '--api-key': 'apiKey', '--token': 'token' } as const
  for (let i = 0; i < words.length - 2; i++) {
    const key = flags[words[i] as keyof typeof flags]
    if (key) globals[key] = words[i + 1]
  }
  // A Tab never prompts, never prints: stderr goes nowhere.
  const quiet: IO = { ...io, stderr: new PassThrough(), isStdinTTY: false, isStderrTTY: false }
  const ctx = new Context(quiet, globals, 'accounts list')
  let timer: NodeJS.Timeout | undefined
  try {
    const ask = (async () => {
      const client = await ctx.client()
      const [accounts, categories] = await Promise.all([client.accounts.list(), client.categories()])
      return {
        accounts: accounts.data.map((a) => a.name).sort(),
        categories: categories.categories.map((c) => c.name).sort(),
      }
    })()
    ask.catch(() => {})
    const late = new Promise<typeof none>((res) => {
      timer = setTimeout(() => res(none), LOOKUP_MS)
      timer.unref()
    })
    return await Promise.race([ask, late])
  } catch {
    return none
  } finally {
    clearTimeout(timer)
    // A target that does not answer may not close either: the Tab does not wait for it.
    await Promise.race([ctx.close().catch(() => {}), new Promise((res) => setTimeout(res, 200).unref())])
  }
}

/**
 * The program as the plain tree the completion answers from. An option's values are worked out
 * for the command that has it; the tree is refused (the build fails) where a command under it would
 * get other values for the same option.
 */
export function completionTree(program: Command): TreeCommand {
  const node = (cmd: Command): TreeCommand => {
    const t: TreeCommand = {
      name: cmd.name(),
      description: firstLine(cmd.description()),
      options: cmd.options.map((o) => optionOf(cmd, o)),
      args: cmd.registeredArguments.map((a, i) => argumentOf(program, cmd, a, i)),
      commands: cmd.commands.map(node),
    }
    if (cmd.aliases().length > 0) t.aliases = cmd.aliases()
    if (isHidden(cmd)) t.hidden = true
    const fields = JSON_FIELDS[commandPath(cmd)]
    if (fields) t.fields = fields
    for (const c of ancestry(cmd).slice(1))
      for (const o of c.options) {
        if (JSON.stringify(valuesOf(cmd, o)) !== JSON.stringify(valuesOf(c, o)))
          throw new Error(`completion: ${o.flags} of "${commandPath(c)}" takes other values under "${commandPath(cmd)}"`)
      }
    return t
  }
  return node(program)
}

function optionOf(cmd: Command, o: Option): TreeOption {
  const t: TreeOption = { description: firstLine(o.description) }
  if (o.long) t.long = o.long
  if (o.short) t.short = o.short
  if (o.hidden) t.hidden = true
  if (o.required || o.optional) t.takesValue = true
  const known = valuesOf(cmd, o)
  if (known) {
    t.values = typeof known.values === 'string' ? known.values : known.values.map((value) => ({ value }))
    if (known.list) t.list = true
  } else if (/file|path|json|dir/i.test(o.flags)) t.files = true
  return t
}

function argumentOf(program: Command, cmd: Command, a: Argument, index: number): TreeArgument {
  const t: TreeArgument = {}
  const values = argumentValues(program, cmd, a, index)
  if (values) t.values = values
  if (a.variadic) {
    t.variadic = true
    const more = argumentValues(program, cmd, a, index + 1)
    if (more) t.more = more
  }
  return t
}

function firstLine(text: string): string {
  return text.split('\n')[0]
}

function isHidden(c: Command): boolean {
  return Boolean((c as unknown as { _hidden?: boolean })._hidden)
}

function ancestry(cmd: Command): Command[] {
  const chain: Command[] = []
  for (let c: Command | null = cmd; c; c = c.parent) chain.push(c)
  return chain
}

/** "keys list" for the command `finctl keys list`. */
function commandPath(cmd: Command): string {
  return ancestry(cmd)
    .reverse()
    .slice(1)
    .map((c) => c.name())
    .join(' ')
}

const KEY_STATUSES = ['active', 'revoked', 'expired', 'all']
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
function valuesOf(
  cmd: Command,
  opt: Option,
): { values: readonly string[] | 'profiles' | 'accounts' | 'categories'; list?: boolean } | undefined {
  if (opt.argChoices) return { values: opt.argChoices }
  const path = commandPath(cmd)
  switch (opt.long) {
    case '--profile':
    case '--save-profile':
      return { values: 'profiles' }
    case '--account':
      return { values: 'accounts' }
    case '--category':
      return { values: 'categories' }
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

function argumentValues(program: Command, cmd: Command, arg: Argument, index: number): Values | undefined {
  if (arg.argChoices) return arg.argChoices.map((value) => ({ value }))
  const path = commandPath(cmd)
  if (/^profile (use|show|remove|protect|unprotect)$/.test(path)) return 'profiles'
  if (/^accounts (get|update|delete|transactions)$/.test(path)) return 'accounts'
  if (path === 'alias delete') return 'aliases'
  if (path === 'help') {
    if (index > 0) return []
    return [
      ...HELP_TOPICS.map((t) => ({ value: t.name, description: firstLine(t.summary) })),
      ...program.commands
        .filter((c) => !isHidden(c) && c.name() !== 'help')
        .map((c): Candidate => ({ value: c.name(), description: firstLine(c.description()) })),
    ]
  }
  if (path === 'api') return (index === 0 ? API_METHODS : API_PATHS).map((value) => ({ value }))
  return undefined
}
