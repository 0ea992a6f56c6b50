/**
 * The close's document policy (docs/closing.md, "Documents before a close"): per currency, the
 * amount from which a transaction needs a linked document; `close status` lists the month's
 * transactions at or above it without one, and with `require_documents` on they keep the month
 * from being ready, so `close` refuses (off by default). Thresholds are kept in minor units.
 */
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError } from '../../kernel/errors.js'
import { formatMinor, parseAmount } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { monthEnd, monthStart } from '../accounts/period-lock.js'
import type { ClosePolicy, ClosePolicyRequest, MissingDocument } from './document-policy-schemas.js'

/** Rows listed by the status (the count covers them all). */
export const MISSING_SHOWN = 100
const CHUNK = 500

interface Stored {
  thresholds: Record<string, number>
  require: boolean
  updated_by: string | null
  updated_at: string | null
}

async function stored(db: Kysely<Db>, companyId: string): Promise<Stored> {
  const row = await db.selectFrom('close_policies').selectAll().where('company_id', '=', companyId).executeTakeFirst()
  if (!row) return { thresholds: {}, require: false, updated_by: null, updated_at: null }
  return {
    thresholds: JSON.parse(row.document_thresholds) as Record<string, number>,
    require: Number(row.require_documents) === 1,
    updated_by: row.updated_by,
    updated_at: row.updated_at,
  }
}

function shown(s: Stored): ClosePolicy {
  const document_thresholds: Record<string, string> = {}
  for (const [c, minor] of Object.entries(s.thresholds).sort()) document_thresholds[c] = formatMinor(minor, currencyExponent(c))
  return { document_thresholds, require_documents: s.require, updated_by: s.updated_by, updated_at: s.updated_at }
}

export async function closePolicy(store: Store, companyId: string): Promise<ClosePolicy> {
  return shown(await stored(store.db, companyId))
}

const invalid = (path: string, message: string) => new AppError('validation_error', `${path}: ${message}`, { details: [{ path, message }] })

/** Set the policy (the owner: the users scope, as the approval policy); the currencies given are changed, the others kept. */
export async function setClosePolicy(store: Store, actor: Actor, req: ClosePolicyRequest, now: Date): Promise<ClosePolicy> {
  if (actor.kind !== 'jwt' || !actor.scopes.includes('users'))
    throw new AppError('forbidden', "only a login whose role has the users scope (the owner) may change the close's document policy")
  const s = await stored(store.db, actor.companyId)
  const thresholds = { ...s.thresholds }
  for (const [code, text] of Object.entries(req.document_thresholds ?? {})) {
    const path = `document_thresholds.${code}`
    let exp: number
    try {
      exp = currencyExponent(code)
    } catch {
      throw invalid(path, `${code} is not a currency finctl knows`)
    }
    if (text === null) {
      delete thresholds[code]
      continue
    }
    const r = parseAmount(text, exp)
    if (!r.ok) throw invalid(path, r.message)
    if (r.minor <= 0) throw invalid(path, 'must be more than 0 (null removes the currency)')
    thresholds[code] = r.minor
  }
  const require = req.require_documents ?? s.require
  const row = {
    document_thresholds: JSON.stringify(thresholds),
    require_documents: require ? 1 : 0,
    updated_by: actorId(actor),
    updated_at: now.toISOString(),
  }
  await store.writeTransaction(async (trx) => {
    const had = await trx.selectFrom('close_policies').select('company_id').where('company_id', '=', actor.companyId).executeTakeFirst()
    if (had) await trx.updateTable('close_policies').set(row).where('company_id', '=', actor.companyId).execute()
    else
      await trx
        .insertInto('close_policies')
        .values({ company_id: actor.companyId, ...row })
        .execute()
  })
  return shown({ thresholds, require, updated_by: row.updated_by, updated_at: row.updated_at })
}

export interface MissingDocuments {
  policy: ClosePolicy
  /** Per account id, how many. */
  perAccount: Map<string, number>
  total: number
  /** The first MISSING_SHOWN, by date. */
  rows: MissingDocument[]
}

/** The month's non-void transactions at or above their currency's threshold with no document linked. */
export async function missingDocuments(store: Store, companyId: string, companyKey: number, month: string): Promise<MissingDocuments> {
  const s = await stored(store.db, companyId)
  const out: MissingDocuments = { policy: shown(s), perAccount: new Map(), total: 0, rows: [] }
  const all: MissingDocument[] = []
  for (const [currency, minor] of Object.entries(s.thresholds)) {
    const page = await store.db
      .selectFrom('transactions')
      .selectAll()
      .where('company_key', '=', companyKey)
      .where('transaction_date', '>=', monthStart(month))
      .where('transaction_date', '<=', monthEnd(month))
      .where('currency_code', '=', currency)
      .where('status', '!=', 'void')
      .where((eb) => eb.or([eb('amount', '>=', minor), eb('amount', '<=', -minor)]))
      .execute()
    const rows = await store.tx.decode(store.db, page)
    const linked = new Set<string>()
    for (let i = 0; i < rows.length; i += CHUNK) {
      const ids = rows.slice(i, i + CHUNK).map((r) => r.id)
      const found = await store.db
        .selectFrom('document_links')
        .select('transaction_id')
        .where('company_id', '=', companyId)
        .where('transaction_id', 'in', ids)
        .execute()
      for (const f of found) linked.add(f.transaction_id)
    }
    for (const r of rows)
      if (!linked.has(r.id))
        all.push({
          id: r.id,
          bank_account_id: r.bank_account_id,
          transaction_date: r.transaction_date,
          amount: formatMinor(r.amount, currencyExponent(r.currency_code)),
          currency_code: r.currency_code,
          description: r.description,
        })
  }
  all.sort((a, b) => a.transaction_date.localeCompare(b.transaction_date) || a.id.localeCompare(b.id))
  for (const r of all) out.perAccount.set(r.bank_account_id, (out.perAccount.get(r.bank_account_id) ?? 0) + 1)
  out.total = all.length
  out.rows = all.slice(0, MISSING_SHOWN)
  return out
}
