/**
 * A verb's flag parsing in process, through its runF seam, as cli/cli's tests hand `NewCmdX` a
 * runF: the program with its real global flags (`createProgram`), the verb registered under its
 * group with a runF that records what it is handed, the argv as runProgram rewrites it, and
 * nothing run (no Context, no core, no files, no network).
 *
 *   const { opts, args } = await parseFlags(registerList, ['rates', 'list', '--all'], 'rates')
 *   const err = await parseError(registerSet, ['rates', 'set'], 'rates')   // err.code, err.stderr
 */
import { PassThrough } from 'node:stream'
import { type Command, CommanderError } from 'commander'
import type { GlobalOptions } from '../../src/cli/context.js'
import type { IO } from '../../src/cli/io.js'
import { commandPath, createProgram, dashValueArgs, jsonFieldArgs, outputFileArgs } from '../../src/cli/program.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'

/** What the runF was handed: the verb's flags, its string arguments, the global flags, the command's path. */
export interface Parsed<O> {
  opts: O
  args: string[]
  globals: GlobalOptions
  command: string
}

/** A verb's register function, as every `commands/<group>/<verb>.ts` exports it. */
// A verb host type differs per verb; the capture never uses it.
export type Register<O extends object> = (parent: Command, run: Runner, runF: RunVerb<O, any>) => unknown

/**
 * Where the verb goes: at the root (undefined, `finctl export`), under a group made by its name as
 * the group's index makes it (`'rates'`), or under the command a function returns (an alias, or
 * `close`, which its own verb makes).
 */
export type Parent = undefined | string | ((program: Command, run: Runner) => Command)

/** A commander error with what commander wrote to stderr (its message and the usage hint). */
export interface ParseError {
  code: string
  message: string
  stderr: string
}

/** The runF never touches the host: a flag-parsing test that did would run the command. */
function dummyHost(globals: GlobalOptions): object {
  return new Proxy(
    { globals },
    {
      get(target, key) {
        if (key in target) return target[key as keyof typeof target]
        // vitest and await probe objects for `then`; the host is no promise.
        if (key === 'then') return undefined
        throw new Error(`flag-parsing test: the host's ${String(key)} was used, so the command would have run`)
      },
    },
  )
}

function memoryIO(): { io: IO; stderr: () => string } {
  const out = new PassThrough()
  const err = new PassThrough()
  let text = ''
  err.setEncoding('utf8').on('data', (d: string) => (text += d))
  out.resume()
  const stdin = new PassThrough()
  stdin.end()
  const io: IO = {
    stdout: out,
    stderr: err,
    stdin,
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
    now: () => new Date('2026-11-20T12:00:00Z'),
  }
  return { io, stderr: () => text }
}

/**
 * Parse `argv` (the words after `finctl`) for the verb `register` adds under `parent`; resolves to
 * what its runF was handed, or rejects with commander's error (a CommanderError with its code).
 */
export async function parseFlags<O extends object>(register: Register<O>, argv: string[], parent?: Parent): Promise<Parsed<O>> {
  return (await parse(register, argv, parent)).parsed
}

/** Parse `argv` expecting commander to refuse it: its code, its message and what it wrote to stderr. */
export async function parseError<O extends object>(register: Register<O>, argv: string[], parent?: Parent): Promise<ParseError> {
  try {
    await parse(register, argv, parent)
  } catch (err) {
    if (!(err instanceof ParseFailure)) throw err
    return err.error
  }
  throw new Error(`commander accepted: finctl ${argv.join(' ')}`)
}

class ParseFailure extends Error {
  constructor(readonly error: ParseError) {
    super(`${error.code}: ${error.message}`)
  }
}

async function parse<O extends object>(register: Register<O>, argv: string[], parent: Parent): Promise<{ parsed: Parsed<O> }> {
  const { io, stderr } = memoryIO()
  let parsed: Parsed<O> | undefined
  let command = ''
  // runProgram's Runner, with a dummy host for the Context: opts second to last, the strings before them the args.
  const run: Runner =
    (fn) =>
    async (...actionArgs: unknown[]) => {
      const cmd = actionArgs[actionArgs.length - 1] as Command
      const opts = actionArgs[actionArgs.length - 2] as object
      const args = actionArgs
        .slice(0, -2)
        .flat()
        .filter((a): a is string => typeof a === 'string')
      command = commandPath(cmd)
      await fn(dummyHost(cmd.optsWithGlobals() as GlobalOptions) as never, opts as never, args)
    }
  // The verb's runF: records what it is handed, runs nothing.
  const capture: RunVerb<O, { globals: GlobalOptions }> = async (host, opts, args) => {
    parsed = { opts, args, globals: host.globals, command }
    return undefined
  }

  const program = createProgram(io)
  const under = typeof parent === 'string' ? program.command(parent) : parent ? parent(program, run) : program
  register(under, run, capture)
  for (const sub of program.commands) sub.exitOverride()

  try {
    await program.parseAsync(dashValueArgs(program, jsonFieldArgs(program, outputFileArgs(program, argv))), { from: 'user' })
  } catch (err) {
    if (err instanceof CommanderError) throw new ParseFailure({ code: err.code, message: err.message, stderr: stderr() })
    throw err
  }
  if (!parsed) throw new Error(`no verb ran for: finctl ${argv.join(' ')}\n${stderr()}`)
  return { parsed }
}
