/**
 * A bench's company on an embedded core, made through the app as a user would: the company and its
 * owner, an API key whose limits no bench reaches, and a client that sends with that key.
 */
import { Client, EMBEDDED_BASE_URL } from '../../src/client/client.js'
import type { Core } from '../../src/core.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'

/** The core's app as a fetch, for a Client on `EMBEDDED_BASE_URL`. */
export function embeddedFetch(core: Core): (url: string, init: RequestInit) => Promise<Response> {
  return (url, init) => Promise.resolve(core.app.fetch(new Request(url, init)))
}

export async function embeddedCompany(core: Core, o: { name: string; email: string; keyName: string }) {
  const fetch = embeddedFetch(core)
  const password = 'correct horse battery'
  const { company } = await bootstrapCompany(core.store, { name: o.name, baseCurrency: 'USD', email: o.email, password }, new Date())
  const token = (await new Client({ baseUrl: EMBEDDED_BASE_URL, fetch, maxRetries: 0 }).token(o.email, password)).access_token
  const key = await new Client({ baseUrl: EMBEDDED_BASE_URL, fetch, maxRetries: 0, token }).keys.create({
    name: o.keyName,
    scopes: ['read', 'write', 'transactions'],
    rate_limit_per_minute: 1_000_000,
    rate_limit_per_day: 100_000_000,
  })
  return { company, key: key.key, client: new Client({ baseUrl: EMBEDDED_BASE_URL, fetch, maxRetries: 0, apiKey: key.key }) }
}
