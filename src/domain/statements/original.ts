/** A statement's original file as uploaded (docs/uploading-statements.md, "The original file"). */
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import { notKeptNote, statementFileBytes } from '../statement-files.js'
import { findStatement } from './statements.js'

export { notKeptNote }

/** The bytes a statement was read from; a 404 saying so for one uploaded before finctl kept them. */
export async function statementOriginal(
  store: Store,
  companyId: string,
  id: string,
): Promise<{ bytes: Uint8Array; fileName: string; sha256: string }> {
  const s = await findStatement(store, companyId, id)
  const bytes = await statementFileBytes(store.db, companyId, s.file_sha256)
  if (!bytes) throw new AppError('not_found', `statement ${s.id}: ${notKeptNote(s.created_at)}`)
  return { bytes, fileName: s.file_name, sha256: s.file_sha256 }
}
