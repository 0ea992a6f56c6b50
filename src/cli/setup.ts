/**
 * `finctl init` on the embedded core: create the database (migrations run on open), a company
 * with its owner, log the owner in, create a first API key, and optionally demo data. Everything
 * after the company itself goes through the API, like any other command.
 */
import { Client } from '../client/client.js'
import { EMBEDDED_BASE_URL, openEmbedded } from '../embedded/embedded.js'
import { bootstrapCompany } from '../domain/accounts/companies.js'
import type { BankAccount, Company, Transaction } from '../domain/schemas.js'
import type { CreatedApiKey } from '../domain/api-keys/schemas.js'
import { createDemoData } from './demo.js'

export interface InitInput {
  database: string
  company: string
  currency: string
  email: string
  password: string
  demo: boolean
}

export interface InitResult {
  company: Company
  email: string
  key: CreatedApiKey
  token: { access_token: string; expires_at: string }
  demo?: { account: BankAccount; transactions: Transaction[] }
}

/** Rate limits of the key `finctl init` makes for the local profile (docs/decisions.md, Rate limits). */
const INIT_KEY_RATE_LIMITS = { perMinute: 10_000, perDay: 10_000_000 }

export async function initEmbedded(input: InitInput, now: () => Date): Promise<InitResult> {
  const transport = await openEmbedded(input.database)
  try {
    const { company, user } = await bootstrapCompany(
      transport.core.store,
      { name: input.company, baseCurrency: input.currency, email: input.email, password: input.password },
      now(),
    )
    const anon = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: transport.fetch })
    const token = await anon.token(user.email, input.password)
    const admin = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: transport.fetch, token: token.access_token })
    const key = await admin.keys.create({
      name: 'finctl CLI',
      scopes: ['read', 'write', 'transactions'],
      description: 'created by finctl init',
      // The owner's own key for their own database: the API's defaults (60 a minute) would pace a
      // million-row `tx import` (1,000 batches) to 17 minutes. Keys made with `keys create` keep them.
      rate_limit_per_minute: INIT_KEY_RATE_LIMITS.perMinute,
      rate_limit_per_day: INIT_KEY_RATE_LIMITS.perDay,
    })
    const result: InitResult = {
      company,
      email: user.email,
      key,
      token: { access_token: token.access_token, expires_at: new Date(now().getTime() + token.expires_in * 1000).toISOString() },
    }
    if (input.demo) {
      const client = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: transport.fetch, apiKey: key.key })
      result.demo = await createDemoData(client, company.base_currency, now())
    }
    return result
  } finally {
    await transport.close()
  }
}
