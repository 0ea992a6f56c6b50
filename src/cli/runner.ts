/** The contract between the program (program.ts) and the command modules (commands/): how a command runs. */
import type { Context } from './context.js'

export type CommandResult = number | undefined

/** Wraps a command's run function: builds its Context, runs it, closes what it opened. */
export type Runner = <O extends object>(
  fn: (ctx: Context, opts: O, args: string[]) => Promise<CommandResult>,
) => (...actionArgs: unknown[]) => Promise<void>
