/**
 * Prompts (@inquirer/prompts, loaded only when one is shown), on stderr, and only when
 * interactive (Context.canPrompt). Without a terminal, a missing value is a usage error naming its flag.
 * Questions, choices and defaults quote names and descriptions: shown with control characters
 * escaped (terminal-text.ts); the value chosen is the exact one.
 */
import { AppError } from '../kernel/errors.js'
import type { IO } from './io.js'
import { printableLine, printableText } from './terminal-text.js'

/** What a prompt needs of a command's Context: its streams, whether it may ask, and --yes. */
export interface PromptHost {
  readonly io: Pick<IO, 'stdin' | 'stderr'>
  readonly globals: { yes?: boolean }
  canPrompt(): boolean
}

const ctxOpts = (ctx: PromptHost) => ({ input: ctx.io.stdin, output: ctx.io.stderr }) as never

export function missing(flag: string, what: string): AppError {
  return new AppError('usage', `${what} is required: give ${flag}`)
}

export async function promptText(
  ctx: PromptHost,
  message: string,
  o: { default?: string; validate?: (v: string) => true | string } = {},
): Promise<string> {
  const { input } = await import('@inquirer/prompts')
  const def = o.default
  const validate = o.validate
  const shown = { message: printableText(message), transformer: (v: string) => printableLine(v) }
  if (def === undefined || def === printableLine(def)) return input({ ...shown, default: def, validate }, ctxOpts(ctx))
  // A default holding control characters is shown escaped in the question, and given back exactly on Enter.
  const answer = await input(
    { ...shown, message: `${shown.message} (${printableLine(def)})`, validate: validate && ((v: string) => validate(v === '' ? def : v)) },
    ctxOpts(ctx),
  )
  return answer === '' ? def : answer
}

export async function promptPassword(ctx: PromptHost, message: string, o: { confirm?: boolean; minLength?: number } = {}): Promise<string> {
  const { password } = await import('@inquirer/prompts')
  const min = o.minLength ?? 8
  for (;;) {
    const first = await password(
      { message: printableText(message), mask: '*', validate: (v: string) => (v.length >= min ? true : `at least ${min} characters`) },
      ctxOpts(ctx),
    )
    if (!o.confirm) return first
    const again = await password({ message: 'Type it again', mask: '*' }, ctxOpts(ctx))
    if (again === first) return first
    ctx.io.stderr.write('The two passwords differ: try again.\n')
  }
}

export async function promptSelect<T extends string>(
  ctx: PromptHost,
  message: string,
  choices: Array<{ name: string; value: T }>,
): Promise<T> {
  const { select } = await import('@inquirer/prompts')
  return select({ message: printableText(message), choices: choices.map((c) => ({ ...c, name: printableLine(c.name) })) }, ctxOpts(ctx))
}

/**
 * A choice among many, filtered as the person types. With `create`, typed text that names no
 * choice (ignoring case) is offered too, as `create.label(text)`: the answer is then `{ created: text }`.
 */
export async function promptSearch<T extends string>(
  ctx: PromptHost,
  message: string,
  all: Array<{ name: string; value: T }>,
  def?: T,
): Promise<T>
export async function promptSearch<T extends string>(
  ctx: PromptHost,
  message: string,
  all: Array<{ name: string; value: T }>,
  def: T | undefined,
  create: { label: (text: string) => string; max?: number },
): Promise<T | { created: string }>
export async function promptSearch<T extends string>(
  ctx: PromptHost,
  message: string,
  all: Array<{ name: string; value: T }>,
  def?: T,
  create?: { label: (text: string) => string; max?: number },
): Promise<T | { created: string }> {
  const { search } = await import('@inquirer/prompts')
  const ordered = def ? [...all.filter((c) => c.value === def), ...all.filter((c) => c.value !== def)] : all
  // The typed text, kept apart from every choice's value: a value of its own cannot be one of theirs.
  const NEW = '\u0000create\u0000'
  const answer = await search<string>(
    {
      message: printableText(message),
      source: (term: string | undefined) => {
        const typed = (term ?? '').trim()
        const t = typed.toLowerCase()
        const found: Array<{ name: string; value: string }> = ordered
          .filter((c) => c.name.toLowerCase().includes(t))
          .slice(0, 50)
          .map((c) => ({ ...c, name: printableLine(c.name) }))
        const named = ordered.some((c) => c.name.toLowerCase() === t)
        if (create && typed && !named && typed.length <= (create.max ?? Number.POSITIVE_INFINITY))
          found.push({ name: printableLine(create.label(typed)), value: `${NEW}${typed}` })
        return found
      },
    },
    ctxOpts(ctx),
  )
  return answer.startsWith(NEW) ? { created: answer.slice(NEW.length) } : (answer as T)
}

export async function promptCheckbox<T extends string>(
  ctx: PromptHost,
  message: string,
  choices: Array<{ name: string; value: T; checked?: boolean }>,
): Promise<T[]> {
  const { checkbox } = await import('@inquirer/prompts')
  return checkbox(
    { message: printableText(message), choices: choices.map((c) => ({ ...c, name: printableLine(c.name) })), required: true },
    ctxOpts(ctx),
  )
}

export async function promptConfirm(ctx: PromptHost, message: string, def = false): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts')
  return confirm({ message: printableText(message), default: def }, ctxOpts(ctx))
}

/** A value from its flag, else from a prompt on a terminal, else a usage error naming the flag. */
export async function valueOrPrompt(
  ctx: PromptHost,
  value: string | undefined,
  flag: string,
  what: string,
  ask: () => Promise<string>,
): Promise<string> {
  if (value !== undefined && value !== '') return value
  if (!ctx.canPrompt()) throw missing(flag, what)
  return ask()
}

/** Destructive commands: --yes, or a confirmation on a terminal. */
export async function confirmOrYes(ctx: PromptHost, yes: boolean | undefined, question: string): Promise<void> {
  if (yes || ctx.globals.yes) return
  // "Revoke API key X? Requests made with it will fail" -> "Revoke API key X: this cannot be undone; ..."
  if (!ctx.canPrompt()) throw new AppError('usage', `${question.replace(/\?.*$/s, '')}: this cannot be undone; give --yes to confirm`)
  if (!(await promptConfirm(ctx, question))) throw new AppError('usage', 'cancelled: nothing was changed')
}
