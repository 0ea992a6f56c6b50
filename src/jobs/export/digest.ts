/**
 * SHA-256 of exports, for the close record (docs/closing.md): of a file as written, and of an export
 * produced again without a file, to compare with what was recorded at the close. The text formats are
 * the same bytes for the same data; a workbook and the filing formats (DATEV, SIE, SAF-T) hold their
 * time of writing, so only their file is checked.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { Writable } from 'node:stream'
import type { Client } from '../../client/client.js'
import type { ExportFormat } from '../../domain/exports/formats/format.js'
import { type ExportRequest, runExport } from './run.js'

export interface Digest {
  sha256: string
  bytes: number
}

/** The formats an export can be produced again for, byte for byte: a workbook and the filing formats hold their time of writing. */
export function reproducible(format: ExportFormat): boolean {
  return format !== 'xlsx' && format !== 'datev' && format !== 'sie4' && format !== 'saft-no'
}

export async function fileDigest(path: string): Promise<Digest> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  return { sha256: hash.digest('hex'), bytes }
}

export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** Produce the export again into a hash: nothing is written anywhere. */
export async function exportDigest(client: Client, request: ExportRequest): Promise<Digest & { rows: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      bytes += chunk.length
      done()
    },
  })
  const r = await runExport(client, request, sink)
  await new Promise<void>((resolve, reject) => sink.end((e?: Error | null) => (e ? reject(e) : resolve())))
  return { sha256: hash.digest('hex'), bytes, rows: r.rows }
}
