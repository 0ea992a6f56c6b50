/**
 * The company's key that signs the packs of its closed months (docs/closing.md, "The auditor's
 * pack"): Ed25519, made on the first pack and kept in the store (migration 0040). The private key
 * never leaves the service; its public part (raw, base64url: a JWK's `x`) is what `finctl company`
 * prints and `verify --pack --public-key` takes.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto'
import type { Store } from '../../store/store.js'

export const PACK_KEY_ALGORITHM = 'ed25519'

export async function packPublicKey(store: Store, companyId: string): Promise<string | null> {
  const row = await store.db.selectFrom('company_signing_keys').select('public_key').where('company_id', '=', companyId).executeTakeFirst()
  return row?.public_key ?? null
}

/** The company's key, made on first use; two first uses at once keep one (the other's insert does nothing). */
async function signingKey(store: Store, companyId: string, now: Date): Promise<{ publicKey: string; privateKey: string }> {
  const read = () =>
    store.db.selectFrom('company_signing_keys').select(['public_key', 'private_key']).where('company_id', '=', companyId).executeTakeFirst()
  let row = await read()
  if (!row) {
    const pair = generateKeyPairSync('ed25519')
    const x = pair.publicKey.export({ format: 'jwk' }).x as string
    await store.db
      .insertInto('company_signing_keys')
      .values({
        company_id: companyId,
        algorithm: PACK_KEY_ALGORITHM,
        public_key: x,
        private_key: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column('company_id').doNothing())
      .execute()
    row = await read()
  }
  return { publicKey: row!.public_key, privateKey: row!.private_key }
}

/** Sign `bytes` with the company's key: the signature (base64) and the public key it verifies with. */
export async function signWithCompanyKey(
  store: Store,
  companyId: string,
  bytes: Uint8Array,
  now: Date,
): Promise<{ signature: string; public_key: string; algorithm: string }> {
  const key = await signingKey(store, companyId, now)
  const signature = sign(null, bytes, createPrivateKey(key.privateKey)).toString('base64')
  return { signature, public_key: key.publicKey, algorithm: PACK_KEY_ALGORITHM }
}
