/**
 * The original files of statement uploads (docs/uploading-statements.md, "The original file"): kept once per
 * company and content, found by the SHA-256 a statement records, written in the same database
 * transaction as the statement, and dropped with the last statement that names them (an import
 * reverted, an account deleted), so that no file outlives every statement read from it.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../store/schema.js'

/** Keep `bytes` under `sha256` unless the company holds them already (another account's statement, a failed upload). */
export async function keepStatementFile(trx: Kysely<Db>, companyId: string, sha256: string, bytes: Uint8Array, now: Date): Promise<void> {
  await trx
    .insertInto('statement_files')
    .values({ company_id: companyId, sha256, size: bytes.length, content: Buffer.from(bytes), created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['company_id', 'sha256']).doNothing())
    .execute()
}

/** Drop the files of `sha256s` that no statement of the company names any more; called in the transaction that deleted statements. */
export async function dropUnusedStatementFiles(trx: Kysely<Db>, companyId: string, sha256s: readonly string[]): Promise<void> {
  if (sha256s.length === 0) return
  await trx
    .deleteFrom('statement_files')
    .where('company_id', '=', companyId)
    .where('sha256', 'in', [...new Set(sha256s)])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('bank_statements')
            .select('bank_statements.id')
            .where('bank_statements.company_id', '=', companyId)
            .whereRef('bank_statements.file_sha256', '=', 'statement_files.sha256'),
        ),
      ),
    )
    .execute()
}

/** The kept bytes of a file, or undefined when none is kept (a statement uploaded before finctl kept them). */
export async function statementFileBytes(db: Kysely<Db>, companyId: string, sha256: string): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('statement_files')
    .select('content')
    .where('company_id', '=', companyId)
    .where('sha256', '=', sha256)
    .executeTakeFirst()
  return row ? new Uint8Array(row.content) : undefined
}

/** Why a statement has no file: finctl kept none before it kept statements' files (migration statement_files). */
export function notKeptNote(createdAt: string): string {
  return `original not kept: uploaded ${createdAt.slice(0, 10)}, before finctl kept statements' files`
}

/** Which of `sha256s` the company holds the file of. */
export async function keptStatementFiles(db: Kysely<Db>, companyId: string, sha256s: readonly string[]): Promise<Set<string>> {
  const want = [...new Set(sha256s)]
  if (want.length === 0) return new Set()
  const rows = await db
    .selectFrom('statement_files')
    .select('sha256')
    .where('company_id', '=', companyId)
    .where('sha256', 'in', want)
    .execute()
  return new Set(rows.map((r) => r.sha256))
}
