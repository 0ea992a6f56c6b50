/** zod issues -> API error details, one per bad field, named by its dotted path. */
import type { ZodError } from 'zod'
import { AppError, type ErrorDetail } from './errors.js'
import { READ_ONLY_TRANSACTION_FIELDS } from './vocabulary.js'

export function zodDetails(error: ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = []
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.')
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const message = (READ_ONLY_TRANSACTION_FIELDS as readonly string[]).includes(key) ? 'is read-only' : 'is not a field of this request'
        details.push({ path: base ? `${base}.${key}` : key, message })
      }
      continue
    }
    let message = issue.message
    if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required'
    details.push({ path: base || '(body)', message })
  }
  return details
}

export function zodError(error: ZodError, where: string): AppError {
  const details = zodDetails(error)
  const summary = details.map((d) => `${d.path} ${d.message}`).join('; ')
  return new AppError('validation_error', `invalid ${where}: ${summary}`, { details })
}
