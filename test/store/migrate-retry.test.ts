/**
 * kysely's Migrator reads the tables of every schema on the server before migrating: another
 * schema dropped meanwhile fails that read. `migrate` tries again then, a few times.
 */
import Database from 'better-sqlite3'
import { Kysely, type KyselyPlugin, SqliteDialect } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrate, migrations } from '../../src/store/migrations/index.js'

/** A plugin that fails the first `n` queries' results as PostgreSQL does when `schema` vanished. */
function vanishing(schema: string, n: number): KyselyPlugin {
  let left = n
  return {
    transformQuery: (a) => a.node,
    transformResult: async (a) => {
      if (left-- > 0) throw new Error(`schema "${schema}" does not exist`)
      return a.result
    },
  }
}

describe('migrate', () => {
  it("goes on when another schema vanishes while the Migrator reads the server's tables", async () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }).withPlugin(vanishing('t_other', 3))
    await migrate(db, migrations('sqlite'))
    const tables = await db.introspection.getTables()
    expect(tables.map((t) => t.name)).toContain('transactions')
    await db.destroy()
  })

  it('gives up, naming the schema, when the reads keep failing', async () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }).withPlugin(vanishing('t_other', 1000))
    await expect(migrate(db, migrations('sqlite'))).rejects.toThrow(/schema "t_other" does not exist/)
    await db.destroy()
  })
})
