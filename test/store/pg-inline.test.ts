/**
 * Parameters written in as literals (src/store/postgres/params.ts, `inline`): PostgreSQL must read
 * back exactly the values a parameter would have carried.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { inline, queryAll, queryWith } from '../../src/store/postgres/params.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, STORES, type TestDatabase } from './fixtures.js'

describe.runIf(STORES.includes('postgres'))('inline parameters on postgres', () => {
  let database: TestDatabase
  let store: Store
  beforeAll(async () => {
    database = await freshDatabase('postgres')
    store = await database.open()
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  it('reads back text with quotes, backslashes, $1 and new lines, numbers, NULL, bytes and arrays as given', async () => {
    const text = `it's a \\N back\\slash, '' two quotes, $1 and $$ dollars;\n a new line, Zürich 東京`
    const bytes = Buffer.from([0, 1, 92, 39, 255])
    const q = inline(
      'SELECT $1::text AS t, $2::bigint AS n, $3::float8 AS f, $4::text AS z, $5::bytea AS b, $6::text[] AS a, $7::bigint[] AS k',
      [text, -9_007_199_254_740_991, 0.25, null, bytes, ["a'b", 'c\\d'], [1, 2]],
    )
    const r = await sql.raw<{ t: string; n: number; f: number; z: null; b: Buffer; a: string[]; k: number[] }>(q).execute(store.db)
    expect(r.rows[0]).toEqual({ t: text, n: -9_007_199_254_740_991, f: 0.25, z: null, b: bytes, a: ["a'b", 'c\\d'], k: ['1', '2'] }) // int8[] comes back as text (the store parses scalar int8 only)
  })

  it('sends a NUL bound, where PostgreSQL refuses it as text (22021), not as a broken message; the connection lives on', async () => {
    const client = new pg.Client({ connectionString: database.target.split('?')[0] })
    await client.connect()
    try {
      const r = await queryWith<{ t: string }>(client, { before: 'BEGIN' }, 'SELECT $1::text AS t', ["it's"])
      expect(r.rows[0].t).toBe("it's")
      await client.query('ROLLBACK')
      await expect(queryWith(client, { after: 'COMMIT' }, 'SELECT $1::text AS t', ['a\u0000b'])).rejects.toMatchObject({ code: '22021' })
      expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1)
    } finally {
      await client.end()
    }
  })

  it('answers one result a statement the texts hold; with a NUL, each bound: the statement fails, nothing after it runs', async () => {
    const client = new pg.Client({ connectionString: database.target.split('?')[0] })
    await client.connect()
    try {
      await client.query('CREATE TEMP TABLE seen (t text)')
      const r = await queryAll(client, [
        'BEGIN; SELECT 1 AS one',
        { text: 'INSERT INTO seen VALUES ($1) RETURNING t', params: ["it's"] },
        'COMMIT',
      ])
      expect(r.map((x) => x.rows)).toEqual([[], [{ one: 1 }], [{ t: "it's" }], []])
      await expect(
        queryAll(client, [
          'BEGIN',
          { text: 'INSERT INTO seen VALUES ($1)', params: ['a\u0000b'] },
          { text: 'INSERT INTO seen VALUES ($1)', params: ['c'] },
          'COMMIT',
        ]),
      ).rejects.toMatchObject({ code: '22021' })
      await client.query('ROLLBACK')
      expect((await client.query('SELECT t FROM seen')).rows).toEqual([{ t: "it's" }])
    } finally {
      await client.end()
    }
  })

  it('refuses a number no statement can hold, and a value of no known type', () => {
    expect(() => inline('SELECT $1', [Number.NaN])).toThrow(/not a number/)
    expect(() => inline('SELECT $1', [{}])).toThrow(/no literal/)
  })
})
