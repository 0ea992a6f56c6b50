/**
 * The company's chart of accounts for the exports (docs/exporting.md, "A chart of accounts"): one
 * accounts map kept by the service, which DATEV, SIE and SAF-T exports (a close's and a pack's too)
 * take when no `--accounts-map` file is given. Setting it takes `write` or `close` (an accountant
 * maps the chart); what a map names is checked here, the numbers each format needs at export.
 */
import { createHash } from 'node:crypto'
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import type { AccountsMapFile, StoredAccountsMap } from './accounts-map-schema.js'

const NONE: StoredAccountsMap = { map: null, sha256: null, updated_by: null, updated_at: null }

export async function storedAccountsMap(store: Store, companyId: string): Promise<StoredAccountsMap> {
  const row = await store.db.selectFrom('export_accounts_maps').selectAll().where('company_id', '=', companyId).executeTakeFirst()
  if (!row) return NONE
  return { map: JSON.parse(row.map) as AccountsMapFile, sha256: row.sha256, updated_by: row.updated_by, updated_at: row.updated_at }
}

/** Replace the company's map; every bank account it names must be one of the company's (by id or name). */
export async function setAccountsMap(store: Store, actor: Actor, map: AccountsMapFile, now: Date): Promise<StoredAccountsMap> {
  const names = Object.keys(map.bank_accounts ?? {})
  if (names.length) {
    const accounts = await store.db.selectFrom('bank_accounts').select(['id', 'name']).where('company_id', '=', actor.companyId).execute()
    const unknown = names.filter((k) => !accounts.some((a) => a.id === k || a.name === k))
    if (unknown.length)
      throw new AppError(
        'validation_error',
        `map.bank_accounts: ${unknown.map((k) => `"${k}"`).join(', ')} is no bank account of this company`,
        {
          details: unknown.map((k) => ({
            path: `map.bank_accounts.${k}`,
            message: 'is no bank account of this company (give its id or name)',
          })),
        },
      )
  }
  const text = JSON.stringify(map)
  const row = {
    map: text,
    sha256: createHash('sha256').update(text).digest('hex'),
    updated_by: actorId(actor),
    updated_at: now.toISOString(),
  }
  await store.writeTransaction(async (trx) => {
    const had = await trx
      .selectFrom('export_accounts_maps')
      .select('company_id')
      .where('company_id', '=', actor.companyId)
      .executeTakeFirst()
    if (had) await trx.updateTable('export_accounts_maps').set(row).where('company_id', '=', actor.companyId).execute()
    else
      await trx
        .insertInto('export_accounts_maps')
        .values({ company_id: actor.companyId, ...row })
        .execute()
  })
  return { map, sha256: row.sha256, updated_by: row.updated_by, updated_at: row.updated_at }
}

/** Remove the company's map; true when there was one. */
export async function deleteAccountsMap(store: Store, actor: Actor): Promise<boolean> {
  return store.writeTransaction(async (trx) => {
    const r = await trx.deleteFrom('export_accounts_maps').where('company_id', '=', actor.companyId).executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  })
}
