/**
 * The commander program: global flags, dispatch to the command tree it is given (commands/root.ts
 * gives the commands of docs/cli.md), and the one place where errors become messages and exit codes.
 */
import { Command, CommanderError, Option } from 'commander'
import { AppError } from '../kernel/errors.js'
import { ProposalWaits } from '../client/request.js'
import { redactPasswords } from '../kernel/redact.js'
import { VERSION } from '../version.js'
import { budgetVersionArgs } from './budget-version.js'
import { Context, type GlobalOptions } from './context.js'
import { OutputClosed } from './closed-output.js'
import { EXIT, exitCodeFor } from './exit-codes.js'
import type { IO } from './io.js'
import { aliasNames, expandAlias } from './aliases.js'
import { nearNames } from '../kernel/near-names.js'
import { judgeFlagValues, valueProblem } from './flag-values.js'
import { Interrupted } from './interrupt.js'
import { isFieldsWord } from './json-shape.js'
import { inUserWords } from './user-words.js'
import type { Runner } from './runner.js'
import { jsonText, printableLine, printableText } from './terminal-text.js'

/** The commands under the root: how to add them, and how to answer a shell's completion request. */
export interface CommandTree {
  /** The top-level commands' names and aliases. */
  names: ReadonlySet<string>
  /**
   * Add the commands under the root: at least those of the top-level command `name` (the one the
   * command line runs), every one when `name` is undefined (no command, or one the tree does not have).
   */
  register(program: Command, run: Runner, name: string | undefined): Promise<void>
  complete(program: Command, words: string[], io: IO): Promise<number>
}

export async function runProgram(argv: string[], io: IO, tree: CommandTree): Promise<number> {
  let exitCode: number = EXIT.ok
  let ctx: Context | undefined
  let running: Command | undefined
  const run: Runner =
    (fn) =>
    async (...actionArgs: unknown[]) => {
      const cmd = actionArgs[actionArgs.length - 1] as Command
      running = cmd
      const opts = actionArgs[actionArgs.length - 2] as object
      const args = actionArgs
        .slice(0, -2)
        .flat()
        .filter((a): a is string => typeof a === 'string')
      ctx = new Context(io, cmd.optsWithGlobals() as GlobalOptions, commandPath(cmd))
      const code = await fn(ctx, opts as never, args)
      exitCode = typeof code === 'number' ? code : EXIT.ok
    }

  const program = createProgram(io)
  argv = expandAlias(argv, commandWordIndex(program, argv, tree.names), tree.names, io.env)
  await tree.register(program, run, topCommandName(program, argv, tree.names))
  for (const sub of program.commands) sub.exitOverride()
  judgedFlags(program)

  if (argv.length === 0) {
    return firstRun(io, program)
  }
  // Shell completion scripts call this on each Tab: candidates from this program tree, no parsing.
  if (argv[0] === '__complete') {
    return tree.complete(program, argv.slice(1), io)
  }

  try {
    const args = dashValueArgs(
      program,
      jsonFieldArgs(program, outputFileArgs(program, budgetVersionArgs(argv, commandWordIndex(program, argv, tree.names)))),
    )
    const unknown = unknownCommandAt(program, args)
    if (unknown) {
      io.stderr.write(unknownCommandError(program, unknown, io.env))
      return EXIT.usage
    }
    await program.parseAsync(args, { from: 'user' })
    return exitCode
  } catch (err) {
    return reportError(io, err, ctx, running)
  } finally {
    if (ctx) await ctx.close().catch(() => {})
  }
}

/**
 * Flag values the CLI judges (flag-values.ts): each command's before its action runs, and a value
 * outside a flag's `choices` with the same message, naming the nearest, instead of commander's.
 */
function judgedFlags(program: Command): void {
  program.hook('preAction', (_, action) => judgeFlagValues(action, commandPath(action)))
  const walk = (c: Command) => {
    for (const o of c.options)
      if (o.argChoices && o.long) {
        const choices = o.argChoices
        const flag = o.long
        o.argParser((value: string) => {
          const problem = valueProblem({ choices }, value)
          if (problem) throw new AppError('usage', `${flag} ${printableLine(value)}: ${problem}`)
          return value
        })
      }
    for (const sub of c.commands) walk(sub)
  }
  walk(program)
}

/** The program with its global flags, before any command is added (the command reference is built from it too). */
export function createProgram(io: IO): Command {
  return new Command('finctl')
    .description("Administer a company's financial data: API keys, transactions, bank accounts, statements and reports.")
    .version(VERSION, '-V, --version')
    .option('--profile <name>', 'profile to use (env FINCTL_PROFILE)')
    .option('--base-url <url>', 'remote service URL (env FINCTL_BASE_URL)')
    .option('--api-key <key>', 'API key (prefer env FINCTL_API_KEY: flags show in process lists)')
    .option('--token <jwt>', 'access token (env FINCTL_TOKEN)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'ndjson', 'csv']))
    .option('--json [fields]', 'same as --output json; with FIELDS (comma-separated), only those fields')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (strings printed raw)')
    .option('--jq-timeout <seconds>', 'stop a --jq filter that runs longer (default 10)')
    .option('--template <tpl>', 'format the JSON output with a template: {{.field}}, {{range .}}...{{end}} (docs/scripting.md)')
    .option('-q, --quiet', 'print nothing but data and errors')
    .option('-v, --verbose', 'print each request (method, URL, status, time) to stderr')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .option('--locale <tag>', 'how amounts are written for people, e.g. de-DE (default: LC_ALL, LC_NUMERIC or LANG; C: en-US)')
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('--yes', 'confirm without asking (destructive commands, writes through a protected profile)')
    .option('--debug', 'show stack traces of internal errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // Commander's errors quote the words typed, which a script may have taken from outside.
      writeErr: (s) => io.stderr.write(printableText(s)),
    })
}

/**
 * The top-level command `argv` runs, as commander will dispatch it: the first word that is no value
 * of a global flag, when it is one of `names`; undefined otherwise. `--json` takes the next word as
 * FIELDS only when it is no command's name and could be fields (as jsonFieldArgs decides).
 */
export function topCommandName(program: Command, argv: string[], names: ReadonlySet<string>): string | undefined {
  const i = commandWordIndex(program, argv, names)
  return i !== undefined && names.has(argv[i]) ? argv[i] : undefined
}

/** Where the command's word is in `argv`: the first word that is no global flag nor its value. */
export function commandWordIndex(program: Command, argv: string[], names: ReadonlySet<string>): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') return undefined
    if (a.startsWith('-')) {
      const o = a.includes('=') ? undefined : program.options.find((x) => x.short === a || x.long === a)
      const next = argv[i + 1]
      if (o?.required) i++
      else if (o?.optional && next !== undefined && !next.startsWith('-') && !names.has(next) && isFieldsWord(next, false)) i++
      continue
    }
    return i
  }
  return undefined
}

/**
 * An unknown command is reported before commander parses (with or without --help: `finctl tx lst
 * -h` would print the help of `tx`, exit 0). Words are matched the way commander dispatches them: a
 * word under a command with subcommands and no arguments of its own must name one of them.
 */
/** The first word of `argv` that commander would take for a command and finds none of, with the command it is under. */
export function unknownCommandAt(program: Command, argv: string[]): { cmd: Command; word: string } | undefined {
  const valueTaking = (cmd: Command, flag: string): boolean => {
    for (let c: Command | null = cmd; c; c = c.parent) {
      const o = c.options.find((x) => x.short === flag || x.long === flag)
      if (o) return o.required || o.optional
    }
    return false
  }
  let cmd = program
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') return undefined
    if (a.startsWith('-')) {
      if (!a.includes('=') && valueTaking(cmd, a)) i++
      continue
    }
    if (cmd.commands.length === 0) return undefined
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a))
    if (sub) {
      cmd = sub
      continue
    }
    // A default subcommand (`categories` runs `categories list`) or arguments of its own take the word.
    const takesWords =
      cmd.registeredArguments.length > 0 || Boolean((cmd as unknown as { _defaultCommandName?: string | null })._defaultCommandName)
    return takesWords || a === 'help' ? undefined : { cmd, word: a }
  }
  return undefined
}

/**
 * An unknown command's error with the names nearest it: the commands under the same command (and
 * their aliases), and at the top the user's aliases too; a name that starts with the word counts as
 * near (`finctl rep` → reports), as does one a swap of two letters away (`mont` → month).
 */
function unknownCommandError(program: Command, at: { cmd: Command; word: string }, env: NodeJS.ProcessEnv): string {
  const names = at.cmd.commands.flatMap((c) => [c.name(), ...c.aliases()])
  if (at.cmd === program) names.push(...aliasNames(env))
  const near = nearNames(names, at.word, 4)
  const hint = near.length === 0 ? '' : near.length === 1 ? `(Did you mean ${near[0]}?)\n` : `(Did you mean one of ${near.join(', ')}?)\n`
  return printableText(`error: unknown command '${at.word}'\n${hint}(run with --help for usage)\n`)
}

/**
 * A command that writes a file of its own takes `-o, --output FILE` (`finctl export`, docs/cli.md),
 * though the program's `--output FORMAT` would take the word first, wherever it stands. After the
 * name of a command whose `--output-file` is hidden (its `-o` is the file), -o and --output are
 * handed to it as that; where `--output-file` is a visible flag of its own (`keys create`), -o
 * stays the output format.
 */
export function outputFileArgs(program: Command, argv: string[]): string[] {
  let cmd = program
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') return argv
    if (a.startsWith('-')) {
      // A flag's value (`--profile B`) is no command's name: the walk goes on after it.
      if (takesValue(cmd, a, argv[i + 1])) i++
      continue
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a))
    if (!sub) return argv
    cmd = sub
    if (!cmd.options.some((o) => o.long === '--output-file' && o.hidden)) continue
    // A subcommand follows (`export map suggest -o F`, `export check F`): its own flags are its own.
    const next = argv.slice(i + 1).find((x) => !x.startsWith('-'))
    if (next !== undefined && cmd.commands.some((c) => c.name() === next || c.aliases().includes(next))) continue
    const rest = argv.slice(i + 1)
    const end = rest.indexOf('--')
    const mapped = (end < 0 ? rest : rest.slice(0, end)).map((x) =>
      x === '--output' || x === '-o'
        ? '--output-file'
        : /^--output=/.test(x)
          ? `--output-file=${x.slice(9)}`
          : /^-o./.test(x)
            ? `--output-file=${x.slice(2)}`
            : x,
    )
    return [...argv.slice(0, i + 1), ...mapped, ...(end < 0 ? [] : rest.slice(end))]
  }
  return argv
}

/** "tx list" for the command `finctl tx list`: the words of its path under the program. */
export function commandPath(cmd: Command): string {
  const names: string[] = []
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

/**
 * `--json` takes FIELDS as an optional value, but before a command's name (`finctl --json tx list`)
 * or an argument (`tx get --json ID`) it stands alone: it is then written `--json=` (no fields), so
 * that commander does not take the next word as its value (json-shape.ts, isFieldsWord).
 */
export function jsonFieldArgs(program: Command, argv: string[]): string[] {
  let cmd = program
  const out = [...argv]
  for (let i = 0; i < out.length; i++) {
    const a = out[i]
    if (a === '--') break
    if (a === '--json') {
      const next = out[i + 1]
      if (next === undefined || next.startsWith('-')) continue
      const sub = cmd.commands.find((c) => c.name() === next || c.aliases().includes(next))
      if (sub || !isFieldsWord(next, cmd.registeredArguments.length > 0)) out[i] = '--json='
      else i++
      continue
    }
    if (a.startsWith('-')) {
      if (takesValue(cmd, a, out[i + 1])) i++
      continue
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a))
    if (sub) cmd = sub
  }
  return out
}

/**
 * A flag's value that starts with a dash (`--public-key -qLc6…`, `--description "-quarterly fee"`)
 * is joined to its flag (`--public-key=-qLc6…`): commander would otherwise read `-q` of it as the
 * program's --quiet and hand the flag the rest.
 */
export function dashValueArgs(program: Command, argv: string[]): string[] {
  let cmd = program
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') return [...out, ...argv.slice(i)]
    if (a.startsWith('-')) {
      const next = argv[i + 1]
      if (takesValue(cmd, a, next)) {
        if (next!.startsWith('-') && next !== '-') out.push(a.startsWith('--') ? `${a}=${next}` : `${a}${next}`)
        else out.push(a, next!)
        i++
      } else out.push(a)
      continue
    }
    out.push(a)
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a))
    if (sub) cmd = sub
  }
  return out
}

/**
 * Whether the flag `a`, given under `cmd` (its own or an ancestor's), takes the next word as its
 * value: a required value, not written `--flag=value`. An optional one (`--json [fields]`) takes
 * it only as jsonFieldArgs decides, and never a command's name.
 */
function takesValue(cmd: Command, a: string, next: string | undefined): boolean {
  if (a.includes('=') || next === undefined) return false
  for (let c: Command | null = cmd; c; c = c.parent) {
    const o = c.options.find((x) => x.short === a || x.long === a)
    if (o) return o.required
  }
  return false
}

async function firstRun(io: IO, program: Command): Promise<number> {
  const ctx = new Context(io, {})
  if (Object.keys(ctx.profiles().list()).length === 0) {
    io.stderr.write(
      'finctl is not set up yet. To start:\n' +
        '  finctl init --demo            set up a local embedded database with a company, a key and demo data\n' +
        '  finctl profile add NAME --base-url URL && finctl login    use a remote finctl service\n',
    )
    return EXIT.ok
  }
  io.stdout.write(program.helpInformation())
  return EXIT.ok
}

/** An error as the user reads it: a message in the flags of `command` (user-words.ts) and an exit code. */
export function reportError(io: IO, err: unknown, ctx: Context | undefined, command?: Command): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok
    return EXIT.usage
  }
  // The reader of stdout went away (`| head -1`): stop quietly, as git and gh do.
  if (err instanceof OutputClosed) return EXIT.ok
  if (err && (err as Error).name === 'ExitPromptError') {
    io.stderr.write('cancelled\n')
    return EXIT.interrupted
  }
  if (err instanceof Interrupted) {
    io.stderr.write(`error: ${err.message}\n`)
    return err.signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted
  }
  if (err instanceof ProposalWaits) {
    // The proposal is the command's data: printed for a script, and said for a person.
    if (ctx?.printer.format === 'json') io.stdout.write(`${JSON.stringify(err.proposal, null, 2)}\n`)
    if (!ctx?.printer.quiet) io.stderr.write(`${printableText(err.message)}\n`)
    return EXIT.proposed
  }
  if (err instanceof AppError) {
    const e = credentialWords(err, ctx)
    return reportAppError(io, e, ctx, inUserWords(e, command), command)
  }
  const e = err as Error
  io.stderr.write(`error: internal error: ${printableText(redactPasswords(e?.message ?? String(err)))}\n`)
  if (ctx?.globals.debug && e?.stack) io.stderr.write(`${printableText(redactPasswords(e.stack))}\n`)
  else io.stderr.write('  (run again with --debug for details)\n')
  return EXIT.failure
}

/** `words`: the message and detail lines in the flags of the command (user-words.ts), when it has them. */
function reportAppError(
  io: IO,
  err: AppError,
  ctx: Context | undefined,
  words: { message: string; lines: string[] } | undefined,
  command?: Command,
): number {
  // A database URL in a message (a target that cannot be opened) is shown without its password.
  const message = redactPasswords(words?.message ?? err.message)
  // Messages quote input (an import's line, a name, the service's words): escaped for the terminal.
  const shown = printableText(message)
  if (ctx?.printer.format === 'json' && err.code !== 'usage') {
    // Scripts get the service's field names in details, beside the message a person reads.
    const body = {
      code: err.code,
      message,
      ...(err.details ? { details: err.details } : {}),
      ...(err.requestId ? { request_id: err.requestId } : {}),
    }
    io.stderr.write(`${jsonText(JSON.stringify(body))}\n`)
  } else {
    io.stderr.write(`error: ${shown}\n`)
    const lines = words
      ? words.lines
      : (err.details ?? [])
          .map((d) => `${d.path}: ${d.message}`)
          .filter((l) => !message.includes(l) && !message.includes(l.replace(': ', ' ')))
    for (const line of lines.map(redactPasswords)) if (!message.includes(line)) io.stderr.write(`  ${printableLine(line)}\n`)
    // `login` refused is a wrong password: running `finctl login` again is no advice; no credentials says its own.
    const name = command ? commandPath(command) : ''
    if (err.code === 'unauthorized' && name !== 'login' && !err.message.startsWith('no credentials'))
      io.stderr.write('  (check your API key, or run `finctl login`)\n')
  }
  return exitCodeFor(err.code)
}

/** The service's "no credentials" (API words: X-API-Key) in the CLI's: the flag, the variable, login, a profile. */
function credentialWords(err: AppError, ctx: Context | undefined): AppError {
  if (err.code !== 'unauthorized' || !err.message.startsWith('no credentials')) return err
  const target = ctx ? ` for ${ctx.describeTarget()}` : ''
  return new AppError(
    'unauthorized',
    `no credentials${target}: give --api-key KEY or set FINCTL_API_KEY, run \`finctl login\`, or choose a profile that has them with --profile NAME (finctl profile list)`,
    { requestId: err.requestId },
  )
}
