/**
 * `finctl statements upload FILE --review`: the file is checked and parsed by the service, which
 * keeps it pending as an import batch: no statement is recorded, no line imported, until `finctl
 * imports apply BATCH` (or `imports discard`). Prints the batch and what apply would upload.
 */
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { shortId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { count } from '../../src/kernel/words.js'
import type { PreviewRequest } from './preview.js'

export async function review(host: VerbHost, bytes: Uint8Array, request: PreviewRequest): Promise<number> {
  const client = await host.client()
  const b = await client.statements.uploadForReview({ ...request, content_base64: Buffer.from(bytes).toString('base64') })
  const expires = (await client.imports.pending(b.id, { limit: 1 })).data.expires_at
  const lines = b.read ?? 0
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, { ...b, batch_id: b.id, pending: lines, expires_at: expires })
    return EXIT.ok
  }
  await printRecord(host.io, host.printer, { batch_id: b.id, file_name: b.file_name, state: b.state, pending: lines, expires_at: expires })
  const short = shortId(b.id)
  note(
    host.io,
    host.printer,
    `review: no statement was recorded; import batch ${short} is pending until ${expires.slice(0, 16).replace('T', ' ')} UTC`,
  )
  note(
    host.io,
    host.printer,
    `finctl imports apply ${short} would upload ${printableLine(b.file_name)} (${count(lines, 'line')}); finctl imports show ${short} lists them`,
  )
  return EXIT.ok
}
