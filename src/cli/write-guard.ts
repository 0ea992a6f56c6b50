/**
 * Safety before the first write of a command (the Client's beforeWrite hook, set by Context):
 * a remote target is named on stderr, and a protected profile needs its name typed at a prompt on a
 * terminal, or --yes. Without a terminal and without --yes, the write is refused (exit 2).
 */
import { AppError } from '../kernel/errors.js'
import type { IO } from './io.js'
import { note, type Printer } from './output.js'
import type { Profile } from './profiles.js'
import { promptText, type PromptHost } from './prompts.js'

/** What the guard needs of a command's Context. */
export interface WriteGuardHost extends PromptHost {
  readonly io: IO
  readonly printer: Printer
  target(): { kind: 'embedded' } | { kind: 'remote'; baseUrl: string }
  profile(): Profile | undefined
  profileName(): string
  describeTarget(): string
  protectedProfile(): string | undefined
}

/** "profile "prod" at finctl.example.com", or the host alone when no profile names the target. */
export function writeTargetLabel(ctx: WriteGuardHost): string {
  const t = ctx.target()
  const profile = ctx.profile()
  const named =
    profile !== undefined && (t.kind === 'embedded' ? profile.target === 'embedded' : profile.target === t.baseUrl.replace(/\/+$/, ''))
  return named ? `profile "${ctx.profileName()}" at ${ctx.describeTarget()}` : ctx.describeTarget()
}

export async function guardWrite(ctx: WriteGuardHost): Promise<void> {
  if (ctx.target().kind === 'remote') note(ctx.io, ctx.printer, `writing to ${writeTargetLabel(ctx)}`)
  const name = ctx.protectedProfile()
  if (!name || ctx.globals.yes) return
  if (!ctx.canPrompt()) {
    throw new AppError('usage', `profile "${name}" is protected: give --yes to write to ${ctx.describeTarget()} without a terminal`)
  }
  const typed = await promptText(ctx, `Profile "${name}" is protected. Type its name to write to ${ctx.describeTarget()}`)
  if (typed.trim() !== name) throw new AppError('usage', `"${typed.trim()}" is not "${name}": cancelled, nothing was changed`)
}
