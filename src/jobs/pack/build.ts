/**
 * `finctl close pack MONTH -o FILE` (docs/closing.md, "The auditor's pack"): the month's journal in
 * the formats asked (always csv: `verify --pack` adds its totals up), its statements and their
 * original files, each statement line with its transaction, the linked documents, the audit entries
 * and the close record, with a manifest of every file's SHA-256 (domain/closing/pack-files.ts, read
 * through the service), signed by the service with the company's key once it has built the same
 * pack again. Held in memory (a month's files), then written as one zip that takes its name only
 * when whole.
 */
import { lstatSync } from 'node:fs'
import { ZipFile } from 'yazl'
import type { Client } from '../../client/client.js'
import { packFiles, packJson, packManifest } from '../../domain/closing/pack-files.js'
import { type Manifest, MANIFEST, SIGNATURE, type SignatureFile } from '../../domain/closing/pack-layout.js'
import type { ExportFormat } from '../../domain/exports/formats/format.js'
import { AppError } from '../../kernel/errors.js'
import { openOutputStream } from '../output-file.js'
import { clientSource } from '../export/run.js'

export interface PackPlan {
  month: string
  formats: ExportFormat[]
  output: string
  force?: boolean
  now?: () => Date
  /** DATEV, SIE, SAF-T: each text the format cannot hold as it is, named with its file and line. */
  onWarning?: (message: string) => void
}

export interface PackResult {
  path: string
  manifest: Manifest
  signature: SignatureFile
  bytes: number
}

/** Refused before any work: an existing file without --force, a folder, a link. */
export function checkPackOutput(plan: PackPlan): void {
  const here = lstatSync(plan.output, { throwIfNoEntry: false })
  if (here?.isFile() && !plan.force)
    throw new AppError('usage', `-o: ${plan.output} already exists: give a new path, or --force to replace it`)
}

export async function buildPack(client: Client, plan: PackPlan): Promise<PackResult> {
  checkPackOutput(plan)
  const c = await client.closePack.contents(plan.month)
  if (c.close.rows_sha256 !== null && c.close.rows_sha256 !== c.rows_sha256_now)
    throw new AppError(
      'conflict',
      `${plan.month}'s rows differ from those its close recorded: see finctl verify --close ${plan.month}; the pack would not match its close`,
    )
  const built = await packFiles(
    {
      contents: c,
      exports: clientSource(client),
      statementFile: async (id) => (await client.statements.file(id)).bytes,
      documentBytes: async (id) => (await client.documents.content(id)).bytes,
      onWarning: plan.onWarning,
    },
    plan.formats,
  )
  const manifest = packManifest(c, built, (plan.now?.() ?? new Date()).toISOString())
  const manifestBytes = packJson(manifest)
  const signed = await client.closePack.sign(plan.month, manifestBytes)
  const signature: SignatureFile = { algorithm: 'ed25519', public_key: signed.public_key, signature: signed.signature }

  const zip = new ZipFile()
  const mtime = new Date(c.close.created_at)
  zip.addBuffer(manifestBytes, MANIFEST, { mtime })
  zip.addBuffer(packJson(signature), SIGNATURE, { mtime })
  for (const [path, b] of built.files) zip.addBuffer(b, path, { mtime })
  zip.end()
  const out = await openOutputStream(plan.output, { flag: '-o', overwrite: plan.force })
  let bytes = 0
  try {
    await new Promise<void>((resolve, reject) => {
      zip.outputStream.on('data', (d: Buffer) => {
        bytes += d.length
      })
      zip.outputStream.on('error', reject)
      out.stream.on('error', reject)
      zip.outputStream.on('end', resolve)
      zip.outputStream.pipe(out.stream, { end: false })
    })
    await out.commit()
  } catch (e) {
    await out.abandon()
    throw e
  }
  return { path: plan.output, manifest, signature, bytes }
}
