/** --json FIELDS, --jq and --template (src/cli/json-shape.ts, template.ts): pure parts and the argv rule. */
import { PassThrough } from 'node:stream'
import { beforeAll, describe, expect, it } from 'vitest'
import { registerAll } from '../../commands/index.js'
import type { IO } from '../../src/cli/io.js'
import { JSON_FIELDS, shapeOf, shapedText } from '../../src/cli/json-shape.js'
import { printList, streamList } from '../../src/cli/output.js'
import { createProgram, jsonFieldArgs } from '../../src/cli/program.js'
import { runTemplate } from '../../src/cli/template.js'
import * as domain from '../../src/domain/schemas.js'
import { ApiKey, CreatedApiKey, RolledApiKey } from '../../src/domain/api-keys/schemas.js'
import { ExchangeRate } from '../../src/domain/rates/schemas.js'
import { Event } from '../../src/domain/events.js'
import { RequestLogEntry } from '../../src/domain/api-keys/request-log.js'
import { CreatedWebhookEndpoint, SendResult, WebhookDetail, WebhookEndpoint } from '../../src/domain/webhooks/schemas.js'
import { CashFlowReport, SummaryReport } from '../../src/domain/reports/schemas.js'
import { Statement } from '../../src/domain/statements/schemas.js'
import { CategorizationRule } from '../../src/domain/categorization/rule-schemas.js'
import { AppError } from '../../src/kernel/errors.js'

const usage = (message: string | RegExp) => expect.objectContaining({ code: 'usage', message: expect.stringMatching(message) })

describe('JSON_FIELDS', () => {
  it("are the service's fields of what each command prints", () => {
    const keys = (z: { shape: object }) => Object.keys(z.shape)
    const expected: Record<string, string[]> = {
      'tx list': keys(domain.Transaction),
      'tx get': keys(domain.TransactionDetail),
      'accounts list': keys(domain.BankAccount),
      'keys list': keys(ApiKey),
      'keys create': keys(CreatedApiKey),
      'keys roll': keys(RolledApiKey),
      'rates list': keys(ExchangeRate),
      'events list': keys(Event),
      'logs tail': keys(RequestLogEntry),
      'events resend': keys(SendResult),
      'webhooks list': keys(WebhookEndpoint),
      'webhooks create': keys(CreatedWebhookEndpoint),
      'webhooks get': keys(WebhookDetail),
      'statements list': keys(Statement),
      'rules list': keys(CategorizationRule),
      'reports summary': keys(SummaryReport),
      'reports cash-flow': keys(CashFlowReport),
    }
    for (const [path, fields] of Object.entries(expected)) expect([...JSON_FIELDS[path]], path).toEqual(fields)
  })

  it('name commands that exist', async () => {
    const program = createProgram({} as IO)
    await registerAll(program, () => async () => {})
    for (const path of Object.keys(JSON_FIELDS)) {
      let cmd = program
      for (const word of path.split(' ')) {
        const sub = cmd.commands.find((c) => c.name() === word)
        expect(sub, path).toBeDefined()
        if (sub) cmd = sub
      }
    }
  })
})

describe('shapeOf', () => {
  it('no fields, no jq, no template: output left as it is', () => {
    expect(shapeOf({ json: true }, 'tx list')).toBeUndefined()
    expect(shapeOf({}, 'tx list')).toBeUndefined()
    expect(shapeOf({ json: '' }, 'tx list')).toBeUndefined()
  })

  it('known fields are kept in order once; unknown ones are exit 2 listing the valid ones', () => {
    expect(shapeOf({ json: 'amount,id,amount' }, 'tx list')).toEqual({ fields: ['amount', 'id'] })
    let err: unknown
    try {
      shapeOf({ json: 'id,amout,descr' }, 'tx list')
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe('usage')
    expect((err as AppError).message).toMatch(/^--json: unknown fields "amout", "descr"; the fields are:\n {2}id\n {2}transaction_date\n/)
    expect(() => shapeOf({ json: 'id amount' }, 'tx list')).toThrow(usage(/^--json takes field names separated by commas/))
    expect(() => shapeOf({ jq: '.', template: 'x' }, 'tx list')).toThrow(usage('give --jq or --template, not both'))
    expect(shapeOf({ jq: '.', jqTimeout: '60' }, 'tx list')).toMatchObject({ jq: '.', jqTimeout: 60 })
    expect(() => shapeOf({ jqTimeout: '60' }, 'tx list')).toThrow(usage('--jq-timeout goes with --jq'))
    for (const bad of ['0', '1.5', 'ten', '86401'])
      expect(() => shapeOf({ jq: '.', jqTimeout: bad }, 'tx list'), bad).toThrow(
        expect.objectContaining({ code: 'usage', message: `--jq-timeout must be a whole number from 1 to 86400 (got "${bad}")` }),
      )
    // A command without a list: any names, checked against what it prints.
    expect(shapeOf({ json: 'whatever' }, 'doctor')).toEqual({ fields: ['whatever'] })
  })

  it('fields of a command not listed are checked against what it prints', async () => {
    await expect(shapedText([{ a: 1, b: 2 }], { fields: ['c'] }, true)).rejects.toThrow(
      usage(/unknown field "c"; the fields are:\n {2}a\n {2}b$/),
    )
    expect(await shapedText([{ a: 1, b: 2 }], { fields: ['b'] }, true)).toBe('[\n  {\n    "b": 2\n  }\n]\n')
    expect(await shapedText([], { fields: ['c'] }, true)).toBe('[]\n')
  })
})

describe('--json before a command or an argument', () => {
  const program = createProgram({} as IO)
  beforeAll(() => registerAll(program, () => async () => {}))
  it('takes FIELDS only where they can be', () => {
    expect(jsonFieldArgs(program, ['tx', 'list', '--json', 'id,amount'])).toEqual(['tx', 'list', '--json', 'id,amount'])
    expect(jsonFieldArgs(program, ['tx', 'list', '--json', 'amout'])).toEqual(['tx', 'list', '--json', 'amout'])
    expect(jsonFieldArgs(program, ['--json', 'tx', 'list'])).toEqual(['--json=', 'tx', 'list'])
    expect(jsonFieldArgs(program, ['tx', 'get', '--json', '01a212c8-823a'])).toEqual(['tx', 'get', '--json=', '01a212c8-823a'])
    expect(jsonFieldArgs(program, ['tx', 'get', '--json', 'amount', 'X'])).toEqual(['tx', 'get', '--json', 'amount', 'X'])
    expect(jsonFieldArgs(program, ['tx', 'get', '--json', 'a,b', 'X'])).toEqual(['tx', 'get', '--json', 'a,b', 'X'])
    expect(jsonFieldArgs(program, ['accounts', 'get', '--json', 'Operating'])).toEqual(['accounts', 'get', '--json=', 'Operating'])
    expect(jsonFieldArgs(program, ['tx', 'list', '--json', '--limit', '2'])).toEqual(['tx', 'list', '--json', '--limit', '2'])
  })
})

function capture(): { io: IO; text: () => string } {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d: Buffer) => (text += d.toString()))
  const io = {
    stdout: out,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
    now: () => new Date(0),
  } as IO
  return { io, text: () => text }
}

describe('printing shaped JSON', () => {
  const rows = [
    { id: 'a', amount: -1500, description: 'Loan', tags: ['x', 'y'] },
    { id: 'b', amount: 20.5, description: 'Refund', tags: [] },
  ]
  const columns = [{ header: 'id', value: (r: (typeof rows)[number]) => r.id }]
  async function* pages() {
    yield rows.slice(0, 1)
    yield rows.slice(1)
  }

  it('--json FIELDS in a list, and streamed page by page (--all)', async () => {
    const p = { format: 'json' as const, color: false, quiet: false, shape: { fields: ['amount', 'id'] }, fieldsKnown: true }
    const a = capture()
    await printList(a.io, p, rows, columns)
    expect(JSON.parse(a.text())).toEqual([
      { amount: -1500, id: 'a' },
      { amount: 20.5, id: 'b' },
    ])
    const b = capture()
    await streamList(b.io, p, pages(), columns)
    expect(b.text()).toBe('[\n{"amount":-1500,"id":"a"},\n{"amount":20.5,"id":"b"}\n]\n')
  })

  it('--jq over the whole list, strings raw; a filter jq cannot read is exit 2', async () => {
    const p = { format: 'json' as const, color: false, quiet: false, shape: { jq: '.[] | select(.amount < 0) | .description' } }
    const a = capture()
    await streamList(a.io, p, pages(), columns)
    expect(a.text()).toBe('Loan\n')
    const b = capture()
    await printList(b.io, { ...p, shape: { jq: 'map(.amount) | add' } }, rows, columns)
    expect(b.text()).toBe('-1479.5\n')
    await expect(printList(capture().io, { ...p, shape: { jq: '.[' } }, rows, columns)).rejects.toThrow(
      usage(/^--jq: jq: error: syntax error/),
    )
    await expect(printList(capture().io, { ...p, shape: { jq: 'error("no")' } }, rows, columns)).rejects.toMatchObject({
      code: 'filter_failed',
      message: '--jq: jq: error (at /dev/stdin:0): no',
    })
  }, 120_000)

  it('--template over the fields asked for', async () => {
    const p = {
      format: 'json' as const,
      color: false,
      quiet: false,
      shape: { fields: ['id', 'amount'], template: '{{range .}}{{.id}}={{.amount}}{{.description}};{{end}}' },
    }
    const a = capture()
    await printList(a.io, p, rows, columns)
    expect(a.text()).toBe('a=-1500;b=20.5;')
  })
})

describe('runTemplate', () => {
  const data = {
    name: 'Ops',
    n: 0,
    items: [
      { d: '2026-10-01', a: -12.5, tags: ['a', 'b'], m: { x: 'deep' } },
      { d: '2026-10-02', a: 3, tags: [], m: null },
    ],
  }
  it('fields, paths, strings, range and if with else, pipes', () => {
    expect(runTemplate('{{.name}}: {{range .items}}{{.d}} {{.a | rjust 6}}|{{end}}', data)).toBe(
      'Ops: 2026-10-01  -12.5|2026-10-02      3|',
    )
    expect(
      runTemplate('{{range .items}}{{.m.x | default "-"}}{{if .tags}} [{{.tags | join "+"}}]{{else}} none{{end}}{{"\\n"}}{{end}}', data),
    ).toBe('deep [a+b]\n- none\n')
    expect(runTemplate('{{.name | upper}} {{.name | lower | ljust 5}}| {{.items | len}} {{.}}', { name: 'Ops', items: [1, 2] })).toBe(
      'OPS ops  | 2 {"name":"Ops","items":[1,2]}',
    )
    expect(runTemplate('{{range .none}}x{{else}}empty{{end}} {{if .n}}yes{{else}}no{{end}}', data)).toBe('empty no')
    expect(runTemplate('{{.name | truncate 2}} {{.items | json}}', { name: 'Operating', items: [1] })).toBe('O… [1]')
    expect(runTemplate('a\n  {{- .name -}}\n  b', data)).toBe('aOpsb')
  })

  it('a template that cannot be read is exit 2 naming --template', () => {
    for (const [tpl, message] of [
      ['{{range .items}}x', /^--template: \{\{range\}\} without \{\{end\}\}$/],
      ['{{end}}', /without \{\{range\}\} or \{\{if\}\}/],
      ['{{.a | nope}}', /^--template: no function "nope"; there are upper, lower/],
      ['{{name}}', /"name" is not a field/],
      ['{{}}', /an empty/],
      ['{{.name | ljust 100000000}}', /^--template: ljust takes a width from 0 to 10000, not 100000000$/],
      ['{{.name | truncate -1}}', /^--template: truncate takes a width from 0 to 10000, not -1$/],
    ] as const)
      expect(() => runTemplate(tpl, data), tpl).toThrow(usage(message))
  })
})
