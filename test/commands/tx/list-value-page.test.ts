/**
 * On the embedded transport a list page reaches the client as the app's own value
 * (src/api/json-answer.ts), not written as JSON and parsed back: `tx list --all` must print the
 * same bytes as from the page's JSON text (what the remote transport reads), in CSV and JSON, for
 * money of currencies with 0, 2 and 3 decimals, control characters, bidi controls and unicode.
 */
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactionColumns } from '../../../src/cli/columns.js'
import { type OutputFormat, streamList } from '../../../src/cli/output.js'
import { JsonValueBody, jsonAnswer, type ValueAnswerEnv } from '../../../src/api/json-answer.js'
import { LiteResponse } from '../../../src/embedded/in-process.js'
import { answerValue } from '../../../src/client/request.js'
import type { Transaction } from '../../../src/domain/schemas.js'
import { memoryIO } from '../../helpers/in-process-cli.js'
import { type TxWorld, callApi, txWorld } from './fixture.js'

const TEXTS = [
  'plain',
  'C0 \x1b[31mred\x1b[0m bell\x07 nul\x00 tab\t lf\n cr\r crlf\r\n',
  'C1 \x9b2J \x85 next line, DEL \x7f',
  'bidi \u202egnp.exe\u202c \u2066isolate\u2069',
  'separators \u2028 and \u2029',
  'emoji 💸 🏳️‍🌈 👩🏽‍💻, café, 東京',
  'quotes " and \\" and "quoted, with comma"',
  '=SUM(A1:A2)',
  '-12.50',
  '@handle',
]

/** Amounts as the API takes them, per currency: whole, fractions, negatives, zero, large. */
const AMOUNTS: Record<string, string[]> = {
  USD: ['-1.05', '0', '12.5', '-0.01', '123456789.99'],
  JPY: ['-1200', '0', '7', '98765432101'],
  BHD: ['-1.005', '0.1', '12.345', '-0.001', '999999.999'],
}

describe('tx list --all: a page kept as a value prints the same bytes as its JSON text', () => {
  let w: TxWorld

  beforeAll(async () => {
    w = await txWorld('tx-list-value', { rows: false })
    const transactions: unknown[] = []
    let day = 1
    for (const [currency, amounts] of Object.entries(AMOUNTS)) {
      const r = await callApi(w.sb, 'POST', '/api-v1/bank-accounts', {
        name: `In ${currency}`,
        account_type: 'checking',
        currency_code: currency,
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      for (const amount of amounts)
        for (const description of TEXTS.slice(0, 4 + (day % 6)))
          transactions.push({
            bank_account_id: r.body.data.id,
            transaction_date: `2026-02-${String((day++ % 28) + 1).padStart(2, '0')}`,
            description,
            amount,
            ...(Number(amount) === 0 ? { force: true } : {}),
            ...(currency === 'USD' ? {} : { exchange_rate: currency === 'JPY' ? '0.0067' : '2.6525' }),
            ...(day % 3 ? { category: description.slice(0, 20) } : {}),
            merchant_name: description,
            tags: [`t${day}`, 'a,b'],
          })
    }
    const r = await callApi(w.sb, 'POST', '/api-v1/transactions/batch', { transactions })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.data.errors).toEqual([])
  })
  afterAll(() => w?.sb.cleanup())

  /** What streamList writes of the rows parsed from the page's JSON text (the remote transport's reading). */
  async function fromText(format: OutputFormat): Promise<string> {
    const rows = (await callApi(w.sb, 'GET', '/api-v1/transactions?limit=1000')).body.data as Transaction[]
    expect(rows.length).toBeGreaterThan(60)
    const pages = (async function* () {
      for (let i = 0; i < rows.length; i += 7) yield rows.slice(i, i + 7)
    })()
    const { io, output } = memoryIO({})
    await streamList(io, { format, color: false, quiet: true }, pages, transactionColumns)
    await new Promise((r) => setImmediate(r))
    return output().stdout
  }

  for (const [format, args] of [
    ['csv', ['--output', 'csv']],
    ['json', ['--json']],
    ['ndjson', ['--output', 'ndjson']],
  ] as const) {
    it(`--all ${args.join(' ')}: the same bytes as from the JSON text, across pages`, async () => {
      const printed = [(await w.sb.ok(['tx', 'list', '--all', '--limit', '3', ...args])).stdout]
      printed.push((await w.sb.ok(['tx', 'list', '--all', '--limit', '1000', ...args])).stdout)
      // After the CLI ran: its account names (CSV's account column) are known to this process.
      const expected = await fromText(format)
      for (const currency of ['JPY', 'BHD']) expect(expected).toContain(currency)
      if (format === 'csv') expect(expected).toContain('In BHD')
      expect(printed).toEqual([expected, expected])
    })
  }
})

describe('jsonAnswer', () => {
  const body = { success: true as const, data: [{ id: 'a', n: 1.5, t: ['x'], s: 'C1 \x9b' }], pagination: { has_more: false } }
  const app = new Hono()
  app.use('*', async (c, next) => {
    c.header('X-Before', 'kept')
    await next()
  })
  app.get('/x', (c) => jsonAnswer(c, body, (b) => c.json(b, 200)))
  const valueResponse: ValueAnswerEnv['valueResponse'] = (b, init) => new LiteResponse(b, init) as unknown as Response

  it('keeps the value on a transport that gives a Response for it, with the headers and status of c.json', async () => {
    const res = await app.fetch(new Request('http://t/x'), { valueResponse } satisfies ValueAnswerEnv)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('x-before')).toBe('kept')
    expect(answerValue(res)?.value).toBe(body)
    // Read once: the body is used.
    expect(answerValue(res)).toBeUndefined()
  })

  it('writes the same text as c.json when read as text, and is c.json elsewhere', async () => {
    const kept = await app.fetch(new Request('http://t/x'), { valueResponse } satisfies ValueAnswerEnv)
    const plain = await app.fetch(new Request('http://t/x'))
    expect(answerValue(plain)).toBeUndefined()
    const text = await plain.text()
    expect(await kept.text()).toBe(text)
    expect(text).toBe(JSON.stringify(body))
    expect(new JsonValueBody(body).text()).toBe(text)
    const again = await app.fetch(new Request('http://t/x'), { valueResponse } satisfies ValueAnswerEnv)
    expect(await (again as unknown as LiteResponse).arrayBuffer()).toEqual(new TextEncoder().encode(text).buffer)
  })
})
