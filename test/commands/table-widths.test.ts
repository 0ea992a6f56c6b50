/**
 * The table rules of docs/cli.md ("Tables on a terminal") over every command that prints a
 * table, in process with a TTY stdout of 60, 80, 100 and 160 columns, colour forced and off, over
 * data with a long value in each table (a description, an account's name, a key's, a rule's text, a
 * close's reason, a webhook's description, a failed statement's error, CJK and emoji): no line wider
 * than the terminal; the id never left out; a column shown on a wide terminal and left out at a narrower one
 * is named on stderr ("N columns hidden: ..."); a long value wrapped inside its cell, whole, never
 * cut with "…"; every amount grouped with its currency (the one money formatter); no colour with
 * NO_COLOR. Then the single rules: negative amounts red, empty columns first to go, a record's long
 * value wrapped, close status's amounts grouped with their currency, tx list's account in CSV and
 * tab-separated rows.
 */
import { writeFileSync } from 'node:fs'
import stringWidth from 'string-width'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const WIDTHS = [60, 80, 100, 160]
const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const LONG =
  'Quarterly settlement of the equipment lease with Northwind Traders, invoice 2026-Q2-0042, as agreed with the landlord in the amendment of March'
const ACCOUNT = 'Northwind equipment reserve account held at the cooperative bank of Lower Saxony'
const INSTITUTION = 'Genossenschaftliche Volksbank Niedersachsen-Mitte eG, Hauptstelle Hannover'
const KEY_NAME = 'Quarterly reporting automation for the external auditors at Contoso Partners'
const RULE_TEXT = 'equipment lease with Northwind Traders'
const RULE_CATEGORY = 'Leases of office and warehouse equipment under long-term contracts'
const REASON = 'the January statement of the reserve account arrives by post at the end of February and was checked by hand'
const HOOK = 'Forwards every transaction and statement event to the reconciliation service of the accounting firm'
const IMPORTED = 'Annual maintenance of the warehouse forklifts by Northwind Industrial Services, contract NW-2026-117'
const SEEDED = 'Reserve for the renovation of the warehouse roof and the loading docks in Hannover'
const CJK = '東京の事務所の家賃と光熱費の支払い（十一月分）と打ち合わせ ☕ 🍰 Café crème'

describe('every table fits the terminal and names what it leaves out', () => {
  const sb = new InProcessSandbox('table-widths')
  let txId = ''
  let statementId = ''
  let juneId = ''
  let failedError = ''
  let rules = ''
  let hook = ''
  let event = ''
  /** The long values of the data: each shown whole wherever its column is. */
  const longValues = () => [
    LONG,
    ACCOUNT,
    INSTITUTION,
    KEY_NAME,
    RULE_TEXT,
    RULE_CATEGORY,
    REASON,
    HOOK,
    CJK,
    IMPORTED,
    SEEDED,
    failedError,
  ]

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--password-stdin', '--no-input'], { input: 'password-for-table-widths\n' })
    const t = await sb.json<{ id: string }>([
      'tx',
      'create',
      '--account',
      'Operating account',
      '--date',
      '2026-06-15',
      '--description',
      LONG,
      '--amount',
      '-1234567.89',
      '--category',
      'Equipment leasing',
      '--force',
      '--json',
    ])
    txId = t.id
    await sb.ok([
      'tx',
      'create',
      '--account',
      'Operating account',
      '--date',
      '2026-06-16',
      '--description',
      CJK,
      '--amount',
      '-1500',
      '--force',
    ])
    rules = (
      await sb.json<{ id: string }>([
        'rules',
        'create',
        '--description-contains',
        RULE_TEXT,
        '--set',
        `category=${RULE_CATEGORY}`,
        '--json',
      ])
    ).id
    await sb.ok(['rules', 'create', '--description-contains', 'coffee', '--set', 'category=Meals'])
    await sb.ok(['accounts', 'create', '--name', ACCOUNT, '--type', 'savings', '--institution-name', INSTITUTION])
    await sb.ok(['keys', 'create', '--name', KEY_NAME, '--scopes', 'read', '--output-file', sb.path('auditors.key')])
    hook = (
      await sb.json<{ id: string }>([
        'webhooks',
        'create',
        '--url',
        'http://127.0.0.1:9/hooks/finctl',
        '--events',
        'transaction.created',
        '--description',
        HOOK,
        '--json',
      ])
    ).id
    // A statement of June: close status shows its closing balance beside the book's.
    const june = sb.path('june.sta')
    writeFileSync(
      june,
      ':20:JUNE\n:25:123456789\n:28C:00006/001\n:60F:C260601USD1000000,00\n:61:2606200620D2345,67NTRFNONREF//1\n:86:Office rent June\n:62F:C260630USD997654,33\n-\n',
    )
    juneId = (
      await sb.json<{ id: string }>(['statements', 'upload', june, '--account', 'Operating account', '--format', 'mt940', '--json'])
    ).id
    // A statement that fails: the file holds two accounts' statements, and its error is a long line.
    const two = sb.path('two.sta')
    const one = (n: string, acct: string) =>
      `:20:${n}\n:25:${acct}\n:28C:00001/001\n:60F:C260501USD100,00\n:61:2605200520D5,00NTRFNONREF//1\n:86:Fee\n:62F:C260531USD95,00\n-\n`
    writeFileSync(two, one('A', 'DE44500105175407324931') + one('B', 'GB29NWBK60161331926819'))
    const up = await sb.run(['statements', 'upload', two, '--account', 'Operating account', '--format', 'mt940', '--json'])
    const failed = JSON.parse(up.stdout || '{}') as { id?: string; error?: string }
    statementId = failed.id ?? ''
    failedError = failed.error ?? ''
    expect(failedError.length, up.stderr).toBeGreaterThan(100)
    // Files the dry runs read: a bank CSV, a statement, a seed; each with a long text.
    writeFileSync(sb.path('bank.csv'), `Booking date;Text;Amount\n02.06.2026;${IMPORTED};-2.400,00\n25.06.2026;Coffee beans;-18,90\n`)
    writeFileSync(
      sb.path('july.sta'),
      `:20:JULY\n:25:123456789\n:28C:00007/001\n:60F:C260701USD997654,33\n:61:2607200720D45,67NTRFNONREF//1\n:86:${IMPORTED}\n:62F:C260731USD997608,66\n-\n`,
    )
    writeFileSync(
      sb.path('seed.json'),
      JSON.stringify({ version: 1, steps: [{ account: 'far', name: SEEDED, account_type: 'savings', currency_code: 'USD' }] }),
    )
    event = (await sb.json<Array<{ id: string }>>(['events', 'list', '--json']))[0]?.id ?? ''
    // A month closed with a long reason and an export, checked by verify --close.
    await sb.ok(['close', '2026-01', '--force', '--reason', REASON, '--export', 'csv', '--output-dir', sb.path('books')])
    await sb.ok(['alias', 'set', 'leases', `tx list --search "${RULE_TEXT}" --category "${RULE_CATEGORY}"`])
  }, 240_000)

  afterAll(() => sb.cleanup())

  /** Every command that prints a table (a list, a report, a record). */
  const commands = () => [
    ['tx', 'list'],
    ['tx', 'list', '--all'],
    ['tx', 'get', txId],
    ['accounts', 'list'],
    ['accounts', 'get', ACCOUNT],
    ['accounts', 'transactions', 'Operating account'],
    ['keys', 'list'],
    ['keys', 'show'],
    ['keys', 'usage'],
    ['categories'],
    ['rules', 'list'],
    ['rules', 'get', rules],
    ['rules', 'test', rules, '--since', '2026-01-01'],
    ['rules', 'test', '--all', '--since', '2026-01-01'],
    ['rules', 'apply', rules, '--since', '2026-01-01', '--dry-run'],
    ['alias', 'list'],
    ['statements', 'list'],
    ['statements', 'get', statementId],
    ['statements', 'transactions', juneId],
    ['rates', 'list'],
    ['reports', 'cash-flow', '--from', '2026-01-01', '--to', '2026-12-31'],
    ['reports', 'summary', '--from', '2026-01-01', '--to', '2026-12-31'],
    ['close', 'status', '--month', '2026-06'],
    ['close', 'history'],
    ['verify', '--close', '2026-01', '--dir', sb.path('books')],
    ['events', 'list'],
    ['webhooks', 'list'],
    ['webhooks', 'get', hook],
    ['events', 'get', event],
    ['profile', 'list'],
    ['profile', 'show'],
    ['tx', 'import', sb.path('bank.csv'), '--account', 'Operating account', '--dry-run'],
    ['statements', 'upload', sb.path('july.sta'), '--account', 'Operating account', '--format', 'mt940', '--preview'],
    ['tx', 'bulk-update', '--ids', txId, '--set', `category=${RULE_CATEGORY}`, '--dry-run'],
    ['seed', sb.path('seed.json'), '--dry-run'],
    ['model', 'status'],
    // Writes that print the record they wrote: the same values each time.
    ['tx', 'update', txId, '--description', LONG],
    ['accounts', 'update', ACCOUNT, '--institution-name', INSTITUTION],
    ['webhooks', 'update', hook, '--description', HOOK],
    ['company'],
    ['whoami'],
  ]

  async function show(args: string[], columns: number, color: boolean) {
    const r = await sb.run(args, { tty: { stdout: true, stderr: true }, columns, env: color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' } })
    expect([0, 12], `finctl ${args.join(' ')}: ${r.stderr}`).toContain(r.code)
    return r
  }

  /** The header names of the tables in `out` (a cut one "INSTITU…" as it is). */
  function headers(out: string): string[] {
    const plain = out.replace(ANSI_SGR, '').split('\n')
    const names: string[] = []
    for (const [i, l] of plain.entries())
      if (l.startsWith('┌'))
        names.push(
          ...plain[i + 1]
            .split('│')
            .map((c) => c.trim())
            .filter(Boolean),
        )
    return names
  }

  /** Each table of `out`: its header names and, per column, its cells' text read down the column, spaces left out. */
  function tables(out: string): Array<{ head: string[]; text: string[]; cells: string[][] }> {
    const plain = out.replace(ANSI_SGR, '').split('\n')
    const found = []
    for (const [i, l] of plain.entries()) {
      if (!l.startsWith('┌')) continue
      const split = (x: string) => x.split('│').slice(1, -1)
      const head = split(plain[i + 1]).map((c) => c.trim())
      const body: string[][] = []
      for (let j = i + 2; j < plain.length && !plain[j].startsWith('└'); j++) body.push(split(plain[j]))
      found.push({
        head,
        text: head.map((_, k) =>
          body
            .map((cells) => cells[k] ?? '')
            .join('')
            .replace(/\s+/g, ''),
        ),
        cells: body,
      })
    }
    return found
  }

  const squeeze = (text: string) => text.replace(/\s+/g, '')
  // A figure of two decimals (an amount, not a rate or a score) is written as formatMoney writes it:
  // grouped, its currency in the cell or the header.
  const DECIMAL = /^-?[\d,]*\d\.\d\d( [A-Z]{3})?$/
  const GROUPED = /^-?\d{1,3}(,\d{3})*\.\d+( [A-Z]{3})?$/

  for (const color of [true, false]) {
    it(`at ${WIDTHS.join(', ')} columns, colour ${color ? 'forced' : 'off'}: no line wider, the id kept, a hidden column named`, async () => {
      for (const args of commands()) {
        // The import's dry run starts its own thread (seconds a run): drawn once, with colour off.
        if (color && args[1] === 'import') continue
        const widest = (await show(args, 1000, color)).stdout
        const wideTables = tables(widest)
        const wide = headers(widest)
        const record = wide[0] === 'FIELD'
        // The data's long values are in the tables they belong to.
        if (args[0] === 'statements' && (args[1] === 'list' || args[1] === 'get'))
          expect(widest, 'statements').toContain(failedError.slice(0, 40))
        for (const width of WIDTHS) {
          const r = await show(args, width, color)
          const what = `finctl ${args.join(' ')} at ${width}`
          // The table and the note under it (a progress line is redrawn in place: what stays is after its last \r).
          const err = r.stderr.split('\n').map((x) => x.split('\r').at(-1) ?? '')
          const from = err.findIndex((x) => /columns? hidden: /.test(x))
          const noteLines = from < 0 ? [] : err.slice(from, from + err.slice(from).findIndex((x) => /use --output$/.test(x)) + 1)
          const tableLines = r.stdout
            .replace(ANSI_SGR, '')
            .split('\n')
            .filter((x) => /^[┌│└]/.test(x))
          for (const l of [...tableLines, ...noteLines]) expect(stringWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(width)
          if (!color) expect(r.stdout, what).not.toContain('\x1b[')
          else if (r.stdout.includes('┌')) expect(r.stdout, what).toContain('\x1b[')
          const shown = headers(r.stdout)
          if (wide.includes('ID')) expect(shown, what).toContain('ID')
          // Nothing is cut: a long value wraps inside its cell, and is there whole, read down its column.
          const drawn = tables(r.stdout)
          // (A value that ends in "…" itself, a masked key, is so on the widest terminal too.)
          for (const t of drawn)
            for (const cells of t.cells)
              for (const c of cells)
                if (/…\s*$/.test(c)) expect(widest.replace(ANSI_SGR, ''), `${what}: a cell cut: ${c}`).toContain(`│ ${c.trim()} `)
          for (const v of longValues()) {
            const at = wideTables.flatMap((t) => t.head.filter((_, k) => t.text[k].includes(squeeze(v))))
            if (at.length === 0) continue
            const whole = drawn.some((t) => t.text.some((x) => x.includes(squeeze(v))))
            expect(whole || at.every((h) => !shown.includes(h)), `${what}: "${v}" is not whole in its cell`).toBe(true)
          }
          // Every amount by the one formatter: grouped, with its currency (in the cell, or the header's).
          for (const t of drawn)
            for (const cells of t.cells)
              for (const [k, c] of cells.entries()) {
                const x = c.trim()
                if (!DECIMAL.test(x) || /RATE/.test(t.head[k])) continue
                expect(x, `${what}: ${t.head[k]}`).toMatch(GROUPED)
                expect(/ [A-Z]{3}$/.test(x) || / [A-Z]{3}$/.test(t.head[k]), `${what}: ${t.head[k]} ${x} has no currency`).toBe(true)
              }
          if (record) continue
          const hidden = /(\d+) columns? hidden: (.*); widen the terminal or use --output/s.exec(r.stderr.replace(/\n/g, ' '))
          const missing = wide.filter((h) => !shown.some((s) => s === h || (s.endsWith('…') && h.startsWith(s.slice(0, -1)))))
          if (missing.length === 0) expect(r.stderr, what).not.toMatch(/hidden:/)
          else {
            expect(hidden, `${what}: ${missing.join(', ')} left out without a note:\n${r.stderr}`).not.toBeNull()
            expect(Number(hidden?.[1]), what).toBe(missing.length)
            for (const m of missing) expect(hidden?.[2], what).toContain(m)
          }
        }
      }
    }, 300_000)
  }

  it('tx list at 80 columns keeps the id, and names the columns it leaves out', async () => {
    const r = await show(['tx', 'list'], 80, false)
    expect(headers(r.stdout).slice(0, 4)).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT'])
    expect(r.stdout).toContain(`│ ${txId.slice(-8)} │`)
    expect(r.stdout).toContain('-1,234,567.89 USD')
  })

  it("statements list at 80 and 100 columns shows a failed statement's long error whole, wrapped inside its cell", async () => {
    for (const width of [80, 100]) {
      const r = await show(['statements', 'list'], width, false)
      const [t] = tables(r.stdout)
      expect(t.head, `at ${width}`).toEqual(expect.arrayContaining(['ID', 'STATUS', 'ERROR']))
      expect(t.text[t.head.indexOf('ERROR')], `at ${width}`).toBe(squeeze(failedError))
      for (const l of r.stdout.split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(width)
      // The failed statement's row takes several lines; the terminal breaks none.
      expect(t.cells.length, `at ${width}`).toBeGreaterThan(3)
    }
  })

  it('reports cash-flow at 100 and 80 columns names the categories it leaves out', async () => {
    const args = ['reports', 'cash-flow', '--from', '2026-01-01', '--to', '2026-12-31']
    expect(headers((await show(args, 160, false)).stdout)).toEqual(expect.arrayContaining(['FINANCING USD', 'UNCATEGORIZED USD']))
    for (const width of [80, 100]) {
      const r = await show(args, width, false)
      expect(headers(r.stdout)).toEqual(expect.arrayContaining(['PERIOD', 'NET USD', 'CLOSING USD']))
      expect(r.stderr.replace(/\n/g, ' '), `at ${width}`).toMatch(
        /\d columns hidden: (.*, )?FINANCING USD, UNCATEGORIZED USD; widen the terminal or use --output/,
      )
    }
  })

  it('negative amounts are red where colour is on (tx list, accounts list)', async () => {
    const r = await show(['tx', 'list'], 160, true)
    expect(r.stdout).toContain('\x1b[31m-1,234,567.89 USD\x1b[39m')
    const off = await show(['tx', 'list'], 160, false)
    expect(off.stdout).toContain('-1,234,567.89 USD')
    expect(off.stdout).not.toContain('\x1b[')
  })

  it('an empty column gives its width away before a text column is narrowed (accounts list at 80)', async () => {
    const r = await show(['accounts', 'list'], 80, false)
    expect(headers(r.stdout)).not.toContain('NUMBER')
    // The empty one first; then a column goes rather than a word that fits its column being broken.
    expect(r.stderr).toMatch(/\d columns? hidden: NUMBER \(empty\)(, [A-Z]+)*; widen the terminal or use --output/)
    expect(r.stdout).toMatch(/│ Operating/)
  })

  it("a record's long value wraps inside its cell (tx get at 80): the table is no wider than the terminal", async () => {
    const r = await show(['tx', 'get', txId], 80, false)
    const lines = r.stdout.split('\n').filter(Boolean)
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(80)
    expect(lines.every((l) => /^[│┌└]/.test(l) && /[│┐┘]$/.test(l))).toBe(true)
    // Every word of the description is there, across lines.
    const text = lines.map((l) => l.replace(/│/g, ' ')).join(' ')
    for (const w of LONG.split(' ')) expect(text).toContain(w)
  })

  it('close status writes its amounts grouped with their currency, and fits 80 and 100 columns', async () => {
    for (const width of [80, 100]) {
      const r = await show(['close', 'status', '--month', '2026-06'], width, false)
      for (const l of r.stdout.split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(width)
      expect(r.stdout).toMatch(/-?\d{1,3}(,\d{3})*\.\d\d USD/)
      expect(headers(r.stdout)).toContain('READY')
    }
  })

  it('tx list names the account in CSV and tab-separated rows, as the table does', async () => {
    const csv = await sb.ok(['tx', 'list', '--output', 'csv'])
    const [head, first] = csv.stdout.split('\r\n')
    expect(head.split(',')).toEqual(expect.arrayContaining(['account', 'account_id']))
    expect(first).toContain('Operating account')
    const tsv = await sb.ok(['tx', 'list'])
    const [h, row] = tsv.stdout.split('\n')
    const i = h.split('\t').indexOf('ACCOUNT')
    expect(i).toBeGreaterThan(0)
    expect(row.split('\t')[i]).toBe('Operating account')
  })
})
