/** zod issues -> API error details, one per bad field, named by its dotted path. */
import type { ZodError, core } from 'zod'
import { AppError, type ErrorDetail } from '../kernel/errors.js'
import { READ_ONLY_TRANSACTION_FIELDS } from '../kernel/vocabulary.js'

export function zodDetails(error: ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = []
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.')
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const message = (READ_ONLY_TRANSACTION_FIELDS as readonly string[]).includes(key)
          ? 'is read-only'
          : 'is not a field of this request'
        details.push({ path: base ? `${base}.${key}` : key, message })
      }
      continue
    }
    details.push({ path: base || '(body)', message: plainMessage(issue) })
  }
  return details
}

export function zodError(error: ZodError, where: string): AppError {
  const details = zodDetails(error)
  const summary = details.map((d) => `${d.path} ${d.message}`).join('; ')
  return new AppError('validation_error', `invalid ${where}: ${summary}`, { details })
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
}

/**
 * zod's default messages ("Invalid input: expected string, received undefined", "Invalid option:
 * expected one of "a"|"b"") in plain words; the messages our schemas set stay as they are.
 */
export function plainMessage(issue: core.$ZodIssue): string {
  const m = issue.message
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined/.test(m)) return 'is required'
      return /^Invalid input/.test(m) ? `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}` : m
    case 'invalid_value':
      return /^Invalid (option|input)/.test(m) ? `must be one of ${issue.values.map(String).join(', ')}` : m
    case 'invalid_union':
      return /^Invalid input/.test(m) ? 'has a value of the wrong kind' : m
    case 'too_big':
      return /^Too big/.test(m)
        ? `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`
        : m
    case 'too_small':
      return /^Too small/.test(m)
        ? `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`
        : m
    default:
      return /^Invalid input/.test(m) ? 'is not valid here' : m
  }
}
