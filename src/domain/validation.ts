/** zod issues -> API error details, one per bad field, named by its dotted path. */
import type { ZodError, core, z } from 'zod'
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

/** Key sets a present-keys parser keeps a schema for (past this, the whole schema parses). */
const MAX_PICKED = 256

/**
 * `schema.safeParse` for a strict object schema, run on the schema picked to the keys an input has
 * (zod's own test: `key in input`), those it must have and those with a default: the same answer,
 * for fewer objects. zod runs every key of a shape on every input, an absent optional one too, at
 * two objects a key: a batch row of an import names 6 of CreateTransactionRequest's 16 keys, so the
 * picked schema makes far less garbage a row (docs/performance.md). A key the shape does not
 * have is reported by the picked schema as by the whole one (both strict, same keys present), and
 * issues come in the shape's key order either way (the mask is built in that order). A schema with
 * object-level checks (which .pick() refuses) parses whole.
 */
export function presentKeysParser<T extends z.ZodObject>(schema: T): (input: unknown) => z.ZodSafeParseResult<z.output<T>> {
  const shape = schema.shape as Record<string, z.ZodType>
  const keys = Object.keys(shape)
  if (keys.length > 31 || schema._zod.def.checks?.length) return (input) => schema.safeParse(input)
  const always = keys.map((k) => {
    const optin = shape[k]._zod.optin
    return optin === undefined || optin === 'defaulted'
  })
  const picked = new Map<number, z.ZodType<z.output<T>>>()
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return schema.safeParse(input)
    let mask = 0
    for (let i = 0; i < keys.length; i++) if (always[i] || keys[i] in input) mask |= 1 << i
    let s = picked.get(mask)
    if (!s) {
      if (picked.size >= MAX_PICKED) return schema.safeParse(input)
      const m: Record<string, true> = {}
      for (let i = 0; i < keys.length; i++) if (mask & (1 << i)) m[keys[i]] = true
      s = schema.pick(m) as unknown as z.ZodType<z.output<T>>
      picked.set(mask, s)
    }
    return s.safeParse(input)
  }
}
