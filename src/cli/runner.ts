/** The contract between the program (program.ts) and the command modules (commands/): how a command runs. */
import type { Client } from '../client/client.js'
import type { Context, GlobalOptions } from './context.js'
import type { IO } from './io.js'
import type { Printer } from './output.js'

export type CommandResult = number | undefined

/** Wraps a command's run function: builds its Context, runs it, closes what it opened. */
export type Runner = <O extends object>(
  fn: (ctx: Context, opts: O, args: string[]) => Promise<CommandResult>,
) => (...actionArgs: unknown[]) => Promise<void>

/**
 * What a verb's run function is handed (cli/cli's Options with its IOStreams and HttpClient): the
 * streams, how to print, the global flags and the client. The Context is one; a test may hand a
 * fake client instead of the core.
 */
export interface VerbHost {
  readonly io: IO
  readonly printer: Printer
  readonly globals: GlobalOptions
  client(): Promise<Client>
}

/** A verb's run function: its host (a verb that prompts asks for a PromptHost too), its parsed flags, its arguments; the exit code. */
export type RunVerb<O extends object, H = VerbHost> = (host: H, opts: O, args: string[]) => Promise<CommandResult>
