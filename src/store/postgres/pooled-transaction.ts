/** A transaction on a connection of the pool, for hot paths whose BEGIN and COMMIT ride with their statements (params.ts). */
import type pg from 'pg'

/**
 * `work` on a connection of `pool`: it begins and commits its transaction itself. When it throws, the
 * transaction is rolled back; a connection that cannot even roll back leaves the pool instead of
 * carrying an open transaction to its next user.
 */
export async function inPooledTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    return await work(client)
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e
    })
    throw err
  } finally {
    client.release(broken)
  }
}
