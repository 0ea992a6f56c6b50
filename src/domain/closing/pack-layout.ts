/**
 * The auditor's pack of a closed month (docs/closing.md, "The auditor's pack"): the names of its
 * files, and its manifest. `close pack` writes it (build.ts); `verify --pack` reads it with no
 * service at all (verify.ts), so both take their names from here.
 */
import type { PackClose } from './pack-schemas.js'

export const PACK_FORMAT = 'finctl-close-pack'
/**
 * 3: the files uploaded are under `as-uploaded/` folders and marked `exact_copy`, the text finctl
 * writes holds no control character, names stand beside ids; 2: the statements' original files are
 * in the pack (statements/originals/); a version 1 pack held none.
 */
export const PACK_VERSION = 3

export const MANIFEST = 'manifest.json'
export const SIGNATURE = 'signature.json'
export const CLOSE_FILE = 'close.json'
export const STATEMENTS_FILE = 'statements/statements.json'
export const RECONCILIATION_FILE = 'reconciliation.csv'
export const DOCUMENTS_INDEX = 'documents/documents.csv'
export const AUDIT_FILE = 'audit/audit-entries.json'
export const journalFile = (name: string) => `journal/${name}`

/** What the manifest says of the statements' own files. */
export const STATEMENT_FILES_NOTE =
  "each statement's original file, as uploaded, is under statements/as-uploaded/ and hashes to the statement's file_sha256 (statements/statements.json); a statement uploaded before finctl kept statements' files has none, and says so"

/** What the manifest says of the files marked exact_copy. */
export const EXACT_COPIES_NOTE =
  'a file marked exact_copy is a file as it was uploaded (a bank statement, a document), under an as-uploaded/ folder, byte for byte: it may hold any bytes, control characters too, so open it with the program it is for, not a terminal; every other file is text finctl wrote, with control characters written as visible escapes (\\x1b in CSV and journals, \\u001b in JSON)'

/** One statement's original in the manifest: its path in the pack, or null and why. */
export interface StatementOriginal {
  statement_id: string
  file_name: string
  sha256: string
  path: string | null
  note: string | null
}

export interface ManifestFile {
  path: string
  sha256: string
  bytes: number
  /** The bytes as uploaded (version 3): a statement's original, a document. */
  exact_copy?: boolean
}

export interface Manifest {
  format: typeof PACK_FORMAT
  version: number
  month: string
  company_id: string
  company: { id: string; name: string; base_currency: string }
  /** The close this pack is of, as the service records it: its id and sequence (2: closed again after one reopen), figures, chain head, who, forced over what. */
  close: PackClose
  created_at: string
  formats: string[]
  /** `included`: every statement's original is in the pack; a version 1 pack had `{ included: false, note }` alone. */
  statement_files: { included: boolean; note: string; originals?: StatementOriginal[] }
  /** Which files are exact copies (version 3). */
  exact_copies?: string
  files: ManifestFile[]
}

export interface SignatureFile {
  algorithm: 'ed25519'
  /** The raw public key, base64url (as `finctl company` prints it). */
  public_key: string
  /** Ed25519 over manifest.json's bytes, base64. */
  signature: string
}

/** A name from outside made safe for a zip entry: anything but plain characters replaced, no leading dot. */
function safeName(fileName: string, fallback: string): string {
  return (
    fileName
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 100) || fallback
  )
}

/** A document's name inside the pack: its id, then its name made safe. */
export function documentPath(id: string, fileName: string): string {
  return `documents/as-uploaded/${id}/${safeName(fileName, 'document')}`
}

/** A statement's original inside the pack: its statement's id, then its name made safe. */
export function statementOriginalPath(statementId: string, fileName: string): string {
  return `statements/as-uploaded/${statementId}-${safeName(fileName, 'statement')}`
}
