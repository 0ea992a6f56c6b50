/**
 * What a database needs now and then: records past their time dropped (idempotency records after
 * their 24 hours, login counters of past minutes, failed logins after LOGIN_AUDIT_DAYS), and the revocation of rolled keys whose grace has ended written down; review imports past their expiry dropped. At most once an hour per database, whichever process comes first: `finctl serve`
 * on a timer, the embedded core as it closes. The last run is kept in `settings`.
 */
import type { Store } from '../store/store.js'
import { settleRolledKeys } from './api-keys/keys.js'
import { pruneLoginRecords } from './api-keys/login-limits.js'
import { pruneIdempotency } from './idempotency.js'

export const HOUSEKEEPING_EVERY_MS = 60 * 60_000
const LAST_RUN = 'housekeeping_at'

/** Run the housekeeping when its last run is an hour old (or never was); whether it ran. */
export async function housekeeping(store: Store, now: Date): Promise<boolean> {
  const last = await store.db.selectFrom('settings').select('value').where('key', '=', LAST_RUN).executeTakeFirst()
  if (last && now.getTime() - Date.parse(last.value) < HOUSEKEEPING_EVERY_MS) return false
  const at = now.toISOString()
  await store.db
    .insertInto('settings')
    .values({ key: LAST_RUN, value: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: at }))
    .execute()
  await pruneIdempotency(store.db, now)
  await pruneLoginRecords(store, now)
  await settleRolledKeys(store, now)
  // Loaded here, once an hour at most: a static import put the review's code (and its schemas) in every start.
  const { sweepExpiredReviews } = await import('./imports/review.js')
  await sweepExpiredReviews(store, now)
  return true
}
