/**
 * Every command group of docs/cli.md (Commands) that exists so far, by the top-level commands it
 * registers, in the order of the help. A group's module is imported only when it is needed: a
 * command loads its own group alone (docs/performance.md, "Start-up"); the help, an unknown command
 * and the completion tree load them all.
 */
import type { Command } from 'commander'
import type { Runner } from '../src/cli/runner.js'

type Register = (program: Command, run: Runner) => void

interface Group {
  /** The top-level commands (and their aliases) the group's register function adds. */
  readonly names: readonly string[]
  /** Needs every other group registered too (`finctl help tx list` shows another group's help). */
  readonly needsAll?: boolean
  readonly load: () => Promise<Register>
}

export const GROUPS: readonly Group[] = [
  { names: ['init'], load: () => import('./init.js').then((m) => m.registerInit) },
  { names: ['login', 'logout', 'whoami'], load: () => import('./auth/index.js').then((m) => m.registerAuth) },
  { names: ['profile'], load: () => import('./profile/index.js').then((m) => m.registerProfile) },
  { names: ['keys'], load: () => import('./keys/index.js').then((m) => m.registerKeys) },
  { names: ['users'], load: () => import('./users/index.js').then((m) => m.registerUsers) },
  { names: ['policy', 'approvals'], load: () => import('./approvals/index.js').then((m) => m.registerApprovals) },
  { names: ['accounts', 'account'], load: () => import('./accounts/index.js').then((m) => m.registerAccounts) },
  { names: ['tx', 'transactions'], load: () => import('./tx/index.js').then((m) => m.registerTx) },
  { names: ['statements', 'statement'], load: () => import('./statements/index.js').then((m) => m.registerStatements) },
  { names: ['docs', 'documents'], load: () => import('./docs/index.js').then((m) => m.registerDocs) },
  { names: ['imports'], load: () => import('./imports/index.js').then((m) => m.registerImports) },
  { names: ['company', 'categories'], load: () => import('./company/index.js').then((m) => m.registerCompany) },
  { names: ['reports'], load: () => import('./reports/index.js').then((m) => m.registerReports) },
  { names: ['rates'], load: () => import('./rates/index.js').then((m) => m.registerRates) },
  { names: ['budgets'], load: () => import('./budgets/index.js').then((m) => m.registerBudgets) },
  { names: ['recurring'], load: () => import('./recurring/index.js').then((m) => m.registerRecurring) },
  { names: ['forecast'], load: () => import('./forecast.js').then((m) => m.registerForecast) },
  { names: ['rules'], load: () => import('./rules/index.js').then((m) => m.registerRules) },
  { names: ['export'], load: () => import('./export/index.js').then((m) => m.registerExportGroup) },
  { names: ['close'], load: () => import('./close/index.js').then((m) => m.registerClose) },
  { names: ['events'], load: () => import('./events/index.js').then((m) => m.registerEvents) },
  { names: ['webhooks'], load: () => import('./webhooks/index.js').then((m) => m.registerWebhooks) },
  { names: ['verify'], load: () => import('./verify.js').then((m) => m.registerVerify) },
  { names: ['model'], load: () => import('./model/index.js').then((m) => m.registerModel) },
  { names: ['seed'], load: () => import('./seed.js').then((m) => m.registerSeed) },
  { names: ['serve'], load: () => import('./serve.js').then((m) => m.registerServe) },
  { names: ['mcp'], load: () => import('./mcp.js').then((m) => m.registerMcp) },
  { names: ['api'], load: () => import('./api.js').then((m) => m.registerApi) },
  { names: ['logs'], load: () => import('./logs/index.js').then((m) => m.registerLogs) },
  { names: ['listen'], load: () => import('./listen.js').then((m) => m.registerListen) },
  { names: ['doctor'], load: () => import('./doctor.js').then((m) => m.registerDoctor) },
  // An alias may not hide a command: it is handed the names of them all.
  {
    names: ['alias'],
    load: () => import('./alias/index.js').then((m) => (p: Command, run: Runner) => m.registerAlias(p, run, COMMAND_NAMES)),
  },
  { names: ['completion'], load: () => import('./completion.js').then((m) => m.registerCompletion) },
  { names: ['help'], needsAll: true, load: () => import('./help-topics.js').then((m) => m.registerHelpTopics) },
]

/** The names of the top-level commands, for finding the one a command line runs before any group is loaded. */
export const COMMAND_NAMES: ReadonlySet<string> = new Set(GROUPS.flatMap((g) => g.names))

/** Every group, in the order of the help. */
export async function registerAll(program: Command, run: Runner): Promise<void> {
  const registers = await Promise.all(GROUPS.map((g) => g.load()))
  for (const register of registers) register(program, run)
}

/** The group of the top-level command `name` alone; every group when no group has that name or its group needs them all. */
export async function registerGroupOf(program: Command, run: Runner, name: string | undefined): Promise<void> {
  const group = name === undefined ? undefined : GROUPS.find((g) => g.names.includes(name))
  if (!group || group.needsAll) return registerAll(program, run)
  const register = await group.load()
  register(program, run)
}
