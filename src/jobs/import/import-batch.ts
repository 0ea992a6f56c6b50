/**
 * The import's batch on the service (POST /api-v1/imports): opened once the plan is read and the
 * file is accepted, named by every batch of rows (X-Import-Batch) so that the service counts what
 * they did, and finished with the rows refused before sending. A dry run opens none.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { basename } from 'node:path'
import type { Client } from '../../client/client.js'
import type { ImportPlan } from '../../import/plan.js'
import type { ImportSummary } from './summarize.js'

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** What of the import's options a batch records (pipeline.ts's ImportOptions has them). */
interface BatchOptions {
  path: string
  accountId: string
  mapping: unknown
  constants?: object
  atomic?: boolean
  review?: boolean
}

/** The mapping and flags as given, and the plan as it was read (what decided how rows were mapped). */
function recordedOptions(o: BatchOptions, plan: ImportPlan): Record<string, unknown> {
  return {
    mapping: o.mapping,
    ...(o.constants ? { set: o.constants } : {}),
    ...(o.atomic ? { atomic: true } : {}),
    ...(o.review ? { review: true } : {}),
    plan: {
      header_line: plan.headerLine,
      header: plan.header,
      map: plan.map,
      date_format: plan.dateFormat,
      decimal: plan.decimal,
      delimiter: plan.layout.delimiter,
      invert_sign: plan.invertSign,
      data_rows: plan.dataRows,
      skipped_lines: plan.skipped.length,
    },
  }
}

export async function openImportBatch(client: Client, o: BatchOptions, plan: ImportPlan): Promise<string> {
  const batch = await client.imports.create({
    kind: 'csv',
    bank_account_id: o.accountId,
    file_name: basename(o.path),
    file_sha256: await fileSha256(o.path),
    options: recordedOptions(o, plan),
  })
  return batch.id
}

/** `rejected`: every row the command counted as rejected (the service's own rejects among them). */
export async function finishImportBatch(
  client: Client,
  id: string,
  summary: ImportSummary,
  failed: boolean,
  review?: boolean,
): Promise<void> {
  await client.imports.finish(id, {
    // --atomic rolled back: what it created was deleted again, the batch did not land.
    // --review: the rows wait, staged, for `imports apply`.
    state: failed || summary.rolled_back ? 'failed' : review ? 'pending' : 'completed',
    read: summary.read,
    rejected: summary.rejected,
    rejects: summary.rejects.slice(0, 1000),
  })
}
