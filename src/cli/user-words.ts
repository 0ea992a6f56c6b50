/**
 * API errors in the words of the command line. The service names the fields of its requests
 * (`transaction_date`, `bank_account_id`); a person typed flags (`--date`, `--account`). This is
 * where the CLI turns the one into the other, for every command, by the one table of
 * src/kernel/flag-words.ts: the API keeps its field names (and `--json` errors keep them in `details`).
 *
 * A field's flag is, in this order: the command's own entry in BY_COMMAND; `--set FIELD` for the
 * fields of `updates.` and `actions.` (bulk updates and rules set fields by name); the flag of
 * FLAG_OF; the field's own name in kebab case (`merchant_name` -> `--merchant-name`). A candidate
 * counts only if the running command has that flag, so a message never names a flag the command
 * lacks; a field without one is written in words (`opening balance date`).
 */
import type { Command } from 'commander'
import type { AppError } from '../kernel/errors.js'
import { BY_COMMAND, FLAG_OF } from '../kernel/flag-words.js'

const kebab = (field: string) => field.replace(/_/g, '-')

/** The flag (or argument, or words) of `command` that fills the API field at `path`. */
export function flagFor(command: Command, path: string): string {
  const own = BY_COMMAND[commandPath(command)]?.[path]
  if (own) return own
  const segments = path
    .replace(/\[\d+\]/g, '')
    .split('.')
    .filter((s) => !/^\d+$/.test(s))
  const field = segments[segments.length - 1]
  if (!field || field === '(body)') return 'the request'
  const flags = new Set(allOptions(command))
  if ((segments[0] === 'updates' || segments[0] === 'actions') && flags.has('--set')) return `--set ${field}`
  const ownOfField = BY_COMMAND[commandPath(command)]?.[field]
  if (ownOfField) return ownOfField
  for (const candidate of [FLAG_OF[field], `--${kebab(field)}`]) {
    if (candidate && flags.has(candidate)) return candidate
  }
  const argument = command.registeredArguments.find((a) => a.name() === field || (field === 'id' && a.name() === 'id'))
  if (argument) return argument.name().toUpperCase()
  return field.replace(/_/g, ' ')
}

/** `tx create`, `statements upload`: the command's words after `finctl`. */
export function commandPath(command: Command): string {
  const names: string[] = []
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

function allOptions(command: Command): string[] {
  const out: string[] = []
  for (let c: Command | null = command; c; c = c.parent) for (const o of c.options) if (o.long) out.push(o.long)
  return out
}

/** A detail's message after its subject: "must be ...", "is required" read on; others get a colon. */
function sentence(subject: string, message: string): string {
  return /^(must|is|are|has|have|cannot|can't|should|needs?|was|were|does|do|at most|at least)\b/.test(message)
    ? `${subject} ${message}`
    : `${subject}: ${message}`
}

/**
 * The same error in the flags of `command`. A message that only restates its details (zod's
 * "invalid body: ...", or "field: message") is rebuilt from them; any other message keeps its
 * words, with the fields it names in backquotes or in snake_case turned into flags, and its
 * details follow it as lines. Errors without details, errors raised here rather than answered by
 * the service, and those of the command that speaks the API's own words (`finctl api`) are left
 * as they are.
 */
export function inUserWords(err: AppError, command: Command | undefined): { message: string; lines: string[] } | undefined {
  // Only the service's answers name its fields; a local error (a seed file's problems) names what the user wrote.
  if (!command || !err.details?.length || !err.requestId || commandPath(command) === 'api') return undefined
  const detailLines = [...new Set(err.details.map((d) => sentence(flagFor(command, d.path), inFlags(command, d.message))))]
  const summary = err.details.map((d) => `${d.path} ${d.message}`).join('; ')
  const restates = /^invalid [a-z[\]0-9 ]+: /.test(err.message) && err.message.endsWith(summary)
  const single = err.details.length === 1 && err.message === `${err.details[0].path}: ${err.details[0].message}`
  if (restates || single) return { message: detailLines.join('; '), lines: [] }
  return { message: inFlags(command, err.message), lines: detailLines }
}

/** Field names in a message, backquoted (`to`) or snake_case (exchange_rate), as the command's flags. */
function inFlags(command: Command, message: string): string {
  return message.replace(
    /`([a-z][a-z0-9_.]*)`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g,
    (whole, quoted: string | undefined, snake: string | undefined) => {
      const field = quoted ?? snake ?? whole
      const flag = flagFor(command, field)
      return flag.startsWith('--') || /^[A-Z]+$/.test(flag) ? flag : quoted ? flag : whole
    },
  )
}

/**
 * A statement's processing error (stored as text on the statement, or thrown by the preview's
 * parser) in flags: the service asks for `account_number`, the command line says --statement-account.
 */
export function statementReasonInUserWords(reason: string): string {
  return reason.replace(/\bgive account_number\b/g, 'give --statement-account NUMBER').replace(/\bexchange_rate\b/g, '--exchange-rate')
}
