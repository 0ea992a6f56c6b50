/** Companies and their owners. `bootstrapCompany` is what `finctl init` runs on the embedded core. */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { nextKey } from '../../store/keys.js'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { hashPassword } from '../api-keys/secrets.js'
import { isCurrency } from '../../kernel/currencies.js'
import type { Company } from '../schemas.js'

export interface BootstrapInput {
  name: string
  baseCurrency: string
  email: string
  password: string
}

export async function bootstrapCompany(store: Store, input: BootstrapInput, now: Date) {
  const name = input.name.trim()
  const email = input.email.trim().toLowerCase()
  if (!name) throw validation('company', 'is required')
  if (!isCurrency(input.baseCurrency)) throw validation('currency', 'must be an ISO 4217 currency code such as USD or EUR')
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw validation('email', 'must be an email address')
  if (input.password.length < 8) throw validation('password', 'must be at least 8 characters')
  const existing = await store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
  if (existing) throw new AppError('conflict', `a user with the email ${email} already exists: log in with it, or choose another email`)
  const company = { id: randomUUID(), name, base_currency: input.baseCurrency, created_at: now.toISOString() }
  const user = {
    id: randomUUID(),
    company_id: company.id,
    email,
    password_hash: await hashPassword(input.password),
    role: 'owner',
    created_at: now.toISOString(),
  }
  await store.writeTransaction(async (trx) => {
    await trx
      .insertInto('companies')
      .values({ ...company, key: await nextKey(trx, 'companies') })
      .execute()
    await trx.insertInto('users').values(user).execute()
  })
  return { company: { ...company, lock_date: null }, user: { id: user.id, email } }
}

export async function getCompany(store: Store, companyId: string, db: Kysely<Db> = store.db): Promise<Company> {
  const row = await db
    .selectFrom('companies')
    .select(['id', 'name', 'base_currency', 'created_at', 'lock_date'])
    .where('id', '=', companyId)
    .executeTakeFirst()
  if (!row) throw notFound('company')
  return row
}

const baseCurrencies = new WeakMap<Store, Map<string, string>>()

/** A company's base currency never changes, so it is cached per store. */
export async function baseCurrency(store: Store, companyId: string, db: Kysely<Db> = store.db): Promise<string> {
  let m = baseCurrencies.get(store)
  if (!m) {
    m = new Map()
    baseCurrencies.set(store, m)
  }
  let c = m.get(companyId)
  if (!c) {
    c = (await getCompany(store, companyId, db)).base_currency
    m.set(companyId, c)
  }
  return c
}
