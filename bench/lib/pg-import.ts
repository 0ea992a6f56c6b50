/**
 * Part of section `import`: `finctl tx import` into a `finctl serve` on PostgreSQL (its batches go
 * in by COPY, src/store/postgres/row-inserts.ts), beside the ceiling measured in the same run on the same
 * file: csv-parse + raw COPY of its rows (date, description, amount in cents, reference) into a plain
 * table with no secondary index, in the same database. Each run gets a schema of its own, dropped at
 * the end (also when the run fails or is interrupted).
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { parse } from 'csv-parse'
import pg from 'pg'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { TX_COLUMNS } from '../../src/store/schema.js'
import { onCleanup, peakRssMb, type ServerProcess } from './children.js'
import { checkPostgres, DEFAULT_PG_URL, dropSchema, dropSchemaSync } from './pg.js'
import { prepareFinctl, redact, startFinctl } from './throughput.js'

export interface PgImportRun {
  /** csv-parse + COPY of the file's rows into a plain table, seconds (one per run). */
  rawCopy: number[]
  /**
   * finctl tx import into finctl serve on PostgreSQL, seconds, one per run, each into a schema of its
   * own (empty). The first run of a bench is often the slowest: PostgreSQL creates its WAL segments
   * then and recycles them afterwards.
   */
  finctl: number[]
  /** Peak RSS of finctl serve (MB), one per run; undefined where /proc is not there. */
  serveRssMb: (number | undefined)[]
  /** Rows created, one per run. */
  created: number[]
  /** PostgreSQL's own cost of the rows as finctl stores them (COPY, no CSV, HTTP or validation): see schemaFloors. */
  floors: PgFloors
}

/** Seconds to COPY the rows finctl stored, as it stores them, into a table shaped like `transactions`. */
export interface PgFloors {
  /** With only its primary key: what the rows' width costs. */
  plain: number
  /** With every index of `transactions`, maintained row by row (what any exactly-once path on this schema pays). */
  indexed: number
  /** With its primary key and unique indexes, then the other indexes built by CREATE INDEX (a deferred design). */
  deferred: { copy: number; builds: number }
}

/** A field in COPY's text format. */
function field(s: string): string {
  return s.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'))
}

async function rawCopy(url: string, file: string): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('DROP TABLE IF EXISTS plain_copy')
    await client.query(
      'CREATE TABLE plain_copy (id bigserial PRIMARY KEY, date text NOT NULL, description text NOT NULL, amount bigint NOT NULL, reference text)',
    )
    const t0 = performance.now()
    // The rows as COPY text in pieces of about 64 KiB.
    async function* text(): AsyncGenerator<string> {
      let piece = ''
      for await (const r of createReadStream(file).pipe(parse({ from_line: 2 })) as AsyncIterable<string[]>) {
        piece += `${r[0]}\t${field(r[1])}\t${r[2].replace('.', '')}\t${field(r[3])}\n`
        if (piece.length >= 65_536) {
          yield piece
          piece = ''
        }
      }
      if (piece) yield piece
    }
    await pipeline(Readable.from(text()), client.query(copyFrom('COPY plain_copy (date, description, amount, reference) FROM STDIN')))
    const seconds = (performance.now() - t0) / 1000
    await client.query('DROP TABLE plain_copy')
    return seconds
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * The schema's floor on PostgreSQL: the rows an import stored in `schema`.transactions, copied out to
 * a file, then COPY'd back into fresh tables shaped like it: with the primary key only, with every
 * index, and with the unique indexes only and the rest built after. No foreign key (LIKE does not copy
 * it). Tells how much of the finctl figure is PostgreSQL's own index work, beside the raw ceiling.
 */
async function schemaFloors(url: string, schema: string): Promise<PgFloors> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const file = join(tmpdir(), `finctl-bench-pgrows-${schema}.copy`)
  const cols = TX_COLUMNS.join(', ')
  const q = (name: string) => `${schema}.${name}`
  try {
    await pipeline(client.query(copyTo(`COPY (SELECT ${cols} FROM ${q('transactions')} ORDER BY seq) TO STDOUT`)), createWriteStream(file))
    const indexes = (
      await client.query<{ def: string; unique: boolean }>(
        `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique FROM pg_index i
         WHERE i.indrelid = '${q('transactions')}'::regclass AND NOT i.indisprimary`,
      )
    ).rows.map((r) => ({
      ...r,
      def: r.def.replace(/ ON \S+ USING /, ` ON ${q('floor_t')} USING `).replace(/^CREATE (UNIQUE )?INDEX \S+/, 'CREATE $1INDEX'),
    }))
    const copyIn = async (indexesFirst: typeof indexes) => {
      await client.query(`DROP TABLE IF EXISTS ${q('floor_t')}`)
      await client.query(`CREATE TABLE ${q('floor_t')} (LIKE ${q('transactions')} INCLUDING DEFAULTS INCLUDING IDENTITY)`)
      await client.query(`ALTER TABLE ${q('floor_t')} ADD PRIMARY KEY (seq)`)
      for (const i of indexesFirst) await client.query(i.def)
      // Each COPY from the same start; CHECKPOINT needs a role that may (pg_checkpoint), else skipped.
      await client.query('CHECKPOINT').catch(() => {})
      const t0 = performance.now()
      await pipeline(createReadStream(file), client.query(copyFrom(`COPY ${q('floor_t')} (${cols}) FROM STDIN`)))
      return (performance.now() - t0) / 1000
    }
    const plain = await copyIn([])
    const indexed = await copyIn(indexes)
    const copy = await copyIn(indexes.filter((i) => i.unique))
    const t0 = performance.now()
    for (const i of indexes.filter((x) => !x.unique)) await client.query(i.def)
    const builds = (performance.now() - t0) / 1000
    await client.query(`DROP TABLE ${q('floor_t')}`)
    return { plain, indexed, deferred: { copy, builds } }
  } finally {
    rmSync(file, { force: true })
    await client.end().catch(() => {})
  }
}

/**
 * Both figures for one file: `runs` imports, each into a new empty schema behind its own finctl serve
 * (the floors are measured on the first one's rows). `runImport` is the section's own runner of the
 * CLI (spawned, timed).
 */
export async function runPgImport(
  root: string,
  file: string,
  ceilingRuns: number,
  runs: number,
  runImport: (env: NodeJS.ProcessEnv, cwd: string, account: string) => { seconds: number; created: number },
  log: (l: string) => void,
): Promise<PgImportRun> {
  const base = process.env.FINCTL_BENCH_DATABASE_URL ?? DEFAULT_PG_URL
  const version = await checkPostgres(base)
  const admin = new URL(base)
  admin.searchParams.delete('schema')
  const adminUrl = admin.toString()
  log(`import: PostgreSQL ${version.split(' ')[1]} at ${redact(adminUrl)}`)
  const out: PgImportRun = {
    rawCopy: [],
    finctl: [],
    serveRssMb: [],
    created: [],
    floors: { plain: 0, indexed: 0, deferred: { copy: 0, builds: 0 } },
  }
  for (let r = 0; r < runs; r++) {
    const schema = `bench_${randomBytes(8).toString('hex')}`
    const u = new URL(base)
    u.searchParams.set('schema', schema)
    const pgUrl = u.toString()
    let dropped = false
    const unregister = onCleanup(() => {
      if (!dropped) dropSchemaSync(root, adminUrl, schema)
    })
    let server: ServerProcess | undefined
    try {
      const setup = prepareFinctl(root, log, pgUrl)
      if (r === 0) for (let i = 0; i < ceilingRuns; i++) out.rawCopy.push(await rawCopy(pgUrl, file))
      server = await startFinctl(root, setup)
      const run = runImport({ ...setup.env, FINCTL_API_KEY: setup.apiKey, FINCTL_BASE_URL: server.url }, setup.configDir, setup.accountId)
      out.serveRssMb.push(peakRssMb(server.child.pid))
      await server.stop()
      server = undefined
      out.finctl.push(run.seconds)
      out.created.push(run.created)
      log(
        `import: PostgreSQL, run ${r + 1} of ${runs}: ${run.seconds.toFixed(1)} s, finctl serve peak RSS ${out.serveRssMb[r]?.toFixed(0) ?? '?'} MB`,
      )
      if (r === 0) out.floors = await schemaFloors(adminUrl, schema)
    } finally {
      await server?.stop()
      try {
        await dropSchema(adminUrl, schema)
        dropped = true
        unregister()
      } catch (err) {
        log(`import: DROP SCHEMA ${schema} failed (${(err as Error).message}); retrying at exit`)
      }
    }
  }
  return out
}
