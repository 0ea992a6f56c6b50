/**
 * What `finctl listen` needs of the outbox beyond `listEvents` (docs/events.md, "finctl listen"):
 * where it ends now, and the per-session signing secret of the deliveries it forwards.
 */
import { randomBytes } from 'node:crypto'
import { maxOf } from '../store/fragments.js'
import type { Store } from '../store/store.js'

/** The sequence of the company's newest event (0 when none): `after=latest` starts there. */
export async function latestEventSequence(store: Store, companyId: string): Promise<number> {
  const row = await store.db.selectFrom('events').select(maxOf('seq').as('seq')).where('company_id', '=', companyId).executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/** A signing secret for one `finctl listen` session: `whsec_` and 32 random bytes in base64url. */
export function sessionSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
}
