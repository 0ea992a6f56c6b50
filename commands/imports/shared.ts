/** What the verbs of `finctl imports` share: a batch's columns, --limit, and a batch named by a short id. */
import type { ActorName } from '../../src/cli/actor-names.js'
import { idColumn } from '../../src/cli/columns.js'
import type { Column } from '../../src/cli/output.js'
import { resolveListedId } from '../../src/cli/short-ids.js'
import type { Client } from '../../src/client/client.js'
import type { ImportBatch } from '../../src/domain/imports/schemas.js'
import { AppError } from '../../src/kernel/errors.js'

/** A batch's columns; `name` says who ran it (an email rather than an id). */
export const columns = (name: ActorName): Column<ImportBatch>[] => [
  idColumn((b) => b.id),
  { header: 'started', value: (b) => b.created_at.slice(0, 19).replace('T', ' '), whole: true, drop: 0 },
  { header: 'kind', value: (b) => b.kind, drop: 4 },
  { header: 'file', value: (b) => b.file_name },
  { header: 'state', value: (b) => b.state },
  { header: 'created', value: (b) => b.counts.created, align: 'right' },
  { header: 'already there', value: (b) => b.counts.existing, align: 'right', drop: 2 },
  { header: 'reconciled', value: (b) => b.counts.reconciled, align: 'right', drop: 3 },
  { header: 'rejected', value: (b) => b.counts.rejected, align: 'right', drop: 1 },
  { header: 'by', value: (b) => name(b.actor), drop: 5 },
]

export function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
    throw new AppError('usage', '--limit must be a whole number from 1 to 1000')
  return Number(text)
}

/** The full id of the batch BATCH names: whole, or a unique prefix or suffix of 6+ hex digits among the latest 1,000. */
export function batchId(client: Client, id: string): Promise<string> {
  return resolveListedId(
    'import batch',
    id,
    async () => (await client.imports.list({ limit: 1000 })).data,
    (b) => `${b.id}  ${b.file_name}  ${b.created_at}`,
    'BATCH',
  )
}
