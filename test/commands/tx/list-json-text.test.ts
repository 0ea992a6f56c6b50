/**
 * `tx list --all --json` and `--output ndjson` print each row as the service wrote it
 * (src/client/row-pages.ts), not parsed and written again: the bytes must be those the parse-and-
 * stringify path (streamList) writes of the same rows, for text with C0 and C1 controls, DEL, bidi
 * controls, line separators, emoji, quotes, backslashes and JSON-looking text inside strings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactionColumns } from '../../../src/cli/columns.js'
import { type OutputFormat, streamList } from '../../../src/cli/output.js'
import { arrayItems, rowPages } from '../../../src/client/row-pages.js'
import { Client } from '../../../src/client/client.js'
import type { Transaction } from '../../../src/domain/schemas.js'
import { memoryIO } from '../../helpers/in-process-cli.js'
import { type TxWorld, callApi, txWorld } from './fixture.js'

const TEXTS = [
  'plain',
  'C0 \x1b[31mred\x1b[0m bell\x07 nul\x00 tab\t lf\n cr\r',
  'C1 \x9b2J \x85 next line, DEL \x7f',
  'bidi \u202egnp.exe\u202c \u2066isolate\u2069',
  'separators \u2028 and \u2029',
  'emoji 💸 🏳️‍🌈 👩🏽‍💻',
  'quotes " and \\" and \\\\" and \\',
  '},{"id":"x"},{ and ],"pagination":{"has_more":false}}',
  // A page of ASCII whose one unusual byte is DEL (pages of 2 below pair these two).
  'DEL alone \x7f',
  'plain again',
]

describe('tx list --all prints the service text of each row, byte for byte', () => {
  let w: TxWorld

  beforeAll(async () => {
    w = await txWorld('tx-list-text', { rows: false })
    const r = await callApi(w.sb, 'POST', '/api-v1/transactions/batch', {
      transactions: TEXTS.map((description, i) => ({
        bank_account_id: w.accounts.main,
        transaction_date: `2026-02-${String(i + 1).padStart(2, '0')}`,
        description,
        amount: `-${i + 1}.05`,
        merchant_name: description,
        tags: [`t${i}`, 'a,b'],
      })),
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.data.errors).toEqual([])
  })
  afterAll(() => w?.sb.cleanup())

  /** What streamList writes of the rows parsed from the service's pages: the output before row-pages.ts. */
  async function parsedOutput(format: OutputFormat): Promise<string> {
    const rows = (await callApi(w.sb, 'GET', '/api-v1/transactions?limit=1000')).body.data as Transaction[]
    const pages = (async function* () {
      for (let i = 0; i < rows.length; i += 3) yield rows.slice(i, i + 3)
    })()
    const { io, output } = memoryIO({})
    await streamList(io, { format, color: false, quiet: true }, pages, transactionColumns)
    await new Promise((r) => setImmediate(r))
    return output().stdout
  }

  for (const [format, args] of [
    ['json', ['--json']],
    ['ndjson', ['--output', 'ndjson']],
  ] as const) {
    it(`--all ${args.join(' ')}: the same bytes as parsing and writing each row, across pages`, async () => {
      const expected = await parsedOutput(format)
      // Every text came back whole, and no byte a terminal acts on is printed raw.
      const back = (
        format === 'json'
          ? JSON.parse(expected)
          : expected
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l))
      ) as Transaction[]
      expect(back.map((t) => t.description).sort()).toEqual([...TEXTS].map((t) => t.trim()).sort())
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
      expect(expected).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
      for (const limit of ['2', '1000']) {
        const r = await w.sb.ok(['tx', 'list', '--all', '--limit', limit, ...args])
        expect(r.stdout).toBe(expected)
      }
    })
  }

  it('splits a compact array into its items, strings and nesting respected; refuses other layouts', () => {
    const items = [{ a: 'x},{"y":[1,2]}', b: [{ c: '\\' }, { d: '"\\"' }] }, [1, [2, 3]], 'a,b', 4, null, { e: {} }]
    const text = JSON.stringify(items)
    expect(arrayItems(text, 0, text.length - 1)).toEqual(items.map((v) => JSON.stringify(v)))
    expect(arrayItems('[]', 0, 1)).toEqual([])
    const pretty = JSON.stringify(items, null, 2)
    expect(arrayItems(pretty, 0, pretty.length - 1)).toBeUndefined()
    expect(arrayItems('[{"a":"b}]', 0, 9)).toBeUndefined()
  })

  it('reads a page in another layout (pretty JSON) by parsing it, with the same rows', async () => {
    const rows = [{ id: 'a', description: 'x\u202e' }, { id: 'b' }]
    const bodies = [
      { success: true, data: rows.slice(0, 1), pagination: { limit: 1, next_cursor: 'c1', has_more: true } },
      { success: true, data: rows.slice(1), pagination: { limit: 1, next_cursor: null, has_more: false } },
    ]
    let n = 0
    const client = new Client({
      baseUrl: 'http://finctl.test',
      maxRetries: 0,
      fetch: async () => new Response(JSON.stringify(bodies[n++], null, 2), { status: 200 }),
    })
    const got: string[] = []
    for await (const page of rowPages(client, '/api-v1/transactions')) got.push(...page.rows)
    expect(got).toEqual(rows.map((r) => JSON.stringify(r)))
    expect(n).toBe(2)
  })
})
