/**
 * In process (test/helpers/in-process-cli.ts): every message speaks the command line, not the wire.
 * The cases of the issue first, then a walk over the whole command tree: every flag that takes a
 * value is given a bad one on top of a working command line, and no message may name an API field
 * (`transaction_date`, `bank_account_id`, ...; the names come from the service's own OpenAPI
 * document) or carry zod's "Invalid input". Flags whose values ARE field names (--sort, --set,
 * --map) may echo them.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'
import { InProcessSandbox as Sandbox, type InProcessResult as CliResult } from '../helpers/in-process-cli.js'

/** Every snake_case name of a request body property or a query parameter in the OpenAPI document. */
function apiFieldNames(spec: any): Set<string> {
  const names = new Set<string>()
  const visit = (node: any) => {
    if (!node || typeof node !== 'object') return
    if (node.properties) for (const k of Object.keys(node.properties)) if (k.includes('_')) names.add(k)
    for (const v of Object.values(node)) visit(v)
  }
  for (const item of Object.values<any>(spec.paths)) {
    for (const op of Object.values<any>(item)) {
      for (const p of op.parameters ?? []) if (p.in === 'query' && p.name.includes('_')) names.add(p.name)
      visit(op.requestBody)
    }
  }
  for (const [name, schema] of Object.entries<any>(spec.components?.schemas ?? {})) if (/Request$/.test(name)) visit(schema)
  return names
}

/** The long flags that take a value, from a command's --help. */
function valueFlags(help: string): string[] {
  const section = help.split(/^Options:$/m)[1] ?? ''
  return [...section.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z0-9-]*) [<[]/gm)].map((m) => m[1])
}

function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]
  if (!section) return []
  return [...section.split(/\n\n/)[0].matchAll(/^ {2}([a-z][a-z0-9-]*)(?:\|[a-z]+)?\b/gm)].map((m) => m[1]).filter((n) => n !== 'help')
}

/** Flags whose values are field names, and the global ones this walk leaves to their own tests. */
const FIELD_NAME_VALUES = new Set(['--sort', '--set', '--map'])
const NOT_WALKED_FLAGS = new Set(['--profile', '--base-url', '--api-key', '--token', '--output'])
/** Commands left out of the walk, and why. */
const NOT_WALKED: Record<string, string> = {
  api: 'speaks the API in its own words by design',
  serve: 'a server, not a request',
  login: 'credentials; tested in cli.test.ts',
  init: 'sets up a new company',
  'model evaluate': 'a local evaluation that runs for seconds',
  completion: 'prints a script',
  doctor: 'checks the machine',
}

describe('messages in the words of the command line', () => {
  const sb = new Sandbox('words')
  let account = ''
  let tx = ''
  let rule = ''
  let key = ''
  let statement = ''
  let fields = new Set<string>()
  const csv = () => join(sb.dir, 'bank.csv')

  /** The names of API fields and zod wording in what the user reads of `r`. */
  function leaks(r: CliResult, allowed: Set<string> = new Set()): string[] {
    const text = r.stderr
    const found = [...fields].filter((f) => !allowed.has(f) && new RegExp(`(^|[^a-z_-])${f}($|[^a-z_])`, 'm').test(text))
    for (const phrase of ['Invalid input', 'Invalid option', 'invalid body', 'invalid query', 'received undefined'])
      if (text.includes(phrase)) found.push(phrase)
    return found
  }

  beforeAll(async () => {
    await sb.ok(['init', '--demo', '--no-input'])
    fields = apiFieldNames(await sb.json(['api', 'GET', '/openapi.json']))
    account = (await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json']))[0].id
    tx = (await sb.json<Array<{ id: string }>>(['tx', 'list', '--limit', '1', '--json']))[0].id
    rule = (await sb.json<{ id: string }>(['rules', 'create', '--description-contains', 'coffee', '--set', 'category=Meals', '--json'])).id
    key = (await sb.json<Array<{ id: string }>>(['keys', 'list', '--json']))[0].id
    writeFileSync(csv(), 'Date,Description,Amount\n2026-01-05,Coffee,-4.50\n2026-01-06,Refund,12.00\n')
    statement = (await sb.json<{ id: string }>(['statements', 'upload', csv(), '--account', account, '--json'])).id
  }, 240_000)
  afterAll(() => sb.cleanup())

  it('finds the API field names in the service document', () => {
    for (const f of ['transaction_date', 'bank_account_id', 'account_number', 'exchange_rate', 'key_id'])
      expect(fields.has(f), f).toBe(true)
  })

  it("the issue's cases name the flag", async () => {
    // Exit 6: the service's; a value the CLI judges itself (a date, an amount, a status) is exit 2, the value named.
    const cases: Array<[string[], RegExp, number?]> = [
      [
        ['tx', 'create', '--account', account, '--date', '2026-02-30', '--amount', '5', '--description', 'x'],
        /^error: --date 2026-02-30: February 2026 has 28 days$/m,
        2,
      ],
      [['tx', 'list', '--status', 'bogus'], /^error: --status bogus: not one of pending, posted, void$/m, 2],
      [
        ['tx', 'create', '--account', account, '--date', '2026-02-03', '--amount', '5', '--description', 'x', '--currency', 'EUR'],
        /^error: --exchange-rate is required for EUR/m,
      ],
      [
        ['tx', 'create', '--account', account, '--date', '2026-02-03', '--amount', '1234567890123456789', '--description', 'x'],
        /^error: --amount: "1234567890123456789" is too large: at most 15 digits/m,
      ],
      [['tx', 'list', '--min-amount', 'abc'], /^error: --min-amount abc: not a decimal amount/m, 2],
      [['tx', 'bulk-update', '--ids', 'nope', '--set', 'status=bogus', '--yes'], /--ids must be a UUID; --set status must be one of/],
    ]
    // An account is taken by its name too: one named nowhere is not found, naming the flag.
    const named = await sb.run(['tx', 'create', '--account', 'nope', '--date', '2026-02-03', '--amount', '5', '--description', 'x'])
    expect(named.code).toBe(5)
    expect(named.stderr).toMatch(/^error: --account: no bank account is named "nope"/m)
    for (const [args, expected, code = 6] of cases) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(code)
      expect(r.stderr, args.join(' ')).toMatch(expected)
      expect(leaks(r), args.join(' ')).toEqual([])
    }
  })

  it('an empty statement file is called empty', async () => {
    const empty = join(sb.dir, 'empty.csv')
    writeFileSync(empty, '')
    const r = await sb.run(['statements', 'upload', empty, '--account', account])
    expect(r.code).toBe(6)
    expect(r.stderr).toBe(`error: ${empty} is empty: there is nothing to upload\n`)
  })

  it('keys usage through a login token asks for --key-id', async () => {
    const tokenOnly = new Sandbox('words-token')
    try {
      await tokenOnly.ok(['init', '--company', 'Words Co', '--email', 'o@words.test', '--password-stdin', '--no-input'], {
        input: 'password-for-words\n',
      })
      await tokenOnly.ok(['login', '--email', 'o@words.test', '--password-stdin'], { input: 'password-for-words\n' })
      // With the profile's key the usage is the key's own; with the login token alone the key must be named.
      const p = JSON.parse(readFileSync(tokenOnly.profilesPath, 'utf8'))
      delete p.profiles.local.api_key
      writeFileSync(tokenOnly.profilesPath, JSON.stringify(p))
      const t = await tokenOnly.run(['keys', 'usage'])
      expect(t.code).toBe(6)
      expect(t.stderr).toMatch(/^error: with an access token, name the key whose usage to show in --key-id$/m)
      expect(leaks(t)).toEqual([])
    } finally {
      tokenOnly.cleanup()
    }
  })

  it('a seed step without a currency names the step and the field, in plain words', async () => {
    const file = join(sb.dir, 'seed-no-currency.json')
    writeFileSync(file, JSON.stringify({ version: 1, steps: [{ account: 'ops', name: 'Ops', account_type: 'checking' }] }))
    const r = await sb.run(['seed', file, '--dry-run'])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/steps\[0\] \(account "ops"\) currency_code[: ]+is required/)
    expect(r.stderr).not.toMatch(/Invalid input|received undefined/)
  })

  it('walks every command: a bad value for each flag never shows an API field or zod wording', async () => {
    const top = commandsOf((await sb.ok(['--help'])).stdout)
    const leaves: string[][] = []
    for (const t of top) {
      const subs = commandsOf((await sb.ok([t, '--help'])).stdout)
      if (subs.length === 0) leaves.push([t])
      else for (const s of subs) leaves.push([t, s])
    }
    // A working command line for each command that needs more than its flags.
    const BASE: Record<string, string[]> = {
      'accounts get': [account],
      'accounts update': [account, '--name', 'Operating'],
      'accounts delete': ['00000000-0000-4000-8000-000000000000', '--yes'],
      'accounts transactions': [account],
      'accounts create': ['--name', 'Walk', '--type', 'checking'],
      'tx get': [tx],
      'tx update': [tx, '--description', 'walked'],
      'tx delete': ['00000000-0000-4000-8000-000000000000', '--yes'],
      'tx create': ['--account', account, '--date', '2026-01-10', '--amount', '-1.00', '--description', 'walk'],
      'tx import': [csv(), '--account', account, '--dry-run'],
      'tx bulk-update': ['--ids', tx, '--set', 'category=Walk', '--dry-run'],
      'tx bulk-delete': ['--ids', tx, '--dry-run'],
      'tx review': ['--list'],
      'statements upload': [csv(), '--account', account, '--preview'],
      'statements get': [statement],
      'statements transactions': [statement],
      'rules get': [rule],
      'rules create': ['--description-contains', 'walk', '--set', 'category=Walk'],
      'rules update': [rule, '--name', 'walked'],
      'rules delete': ['00000000-0000-4000-8000-000000000000', '--yes'],
      'rules test': [rule],
      'rules apply': [rule, '--yes'],
      'keys revoke': ['00000000-0000-4000-8000-000000000000', '--yes'],
      'keys create': ['--name', 'walk', '--scopes', 'read'],
      'keys usage': ['--key-id', key],
      'profile add': ['walk'],
      seed: [join(sb.dir, 'seed-no-currency.json'), '--dry-run'],
      'rates import': [join(ROOT, 'examples', 'rates.csv')],
      'rates set': ['--date', '2026-01-05', '--currency', 'EUR', '--rate', '1.1'],
      'rates delete': ['--date', '2026-01-05', '--currency', 'EUR', '--yes'],
    }
    const runs: Array<{ args: string[]; flag: string }> = []
    for (const leaf of leaves) {
      const name = leaf.join(' ')
      if (NOT_WALKED[name] || NOT_WALKED[leaf[0]]) continue
      const help = (await sb.ok([...leaf, '--help'])).stdout
      const flags = valueFlags(help).filter(
        (f) => !NOT_WALKED_FLAGS.has(f) && !/^--(output-file|rejects|env-out|save-profile|save-mapping)$/.test(f),
      )
      for (const flag of flags) {
        // Not a number, a date, an id, a code or a choice; a date flag also gets an impossible date.
        const bad = new RegExp(`${flag} <date>`).test(help) ? ['@bad@', '2026-13-45'] : ['@bad@']
        for (const value of bad) runs.push({ args: [...leaf, ...replaceFlag(BASE[name] ?? [], flag, value), '--no-input'], flag })
      }
    }
    const found: string[] = []
    // Three at a time: each is a process of its own on the same embedded database.
    const queue = [...runs]
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let run = queue.shift(); run; run = queue.shift()) {
          const r = await sb.run(run.args)
          const l = leaks(r, FIELD_NAME_VALUES.has(run.flag) ? fields : new Set<string>())
          if (l.length) found.push(`finctl ${run.args.join(' ')}\n  ${r.stderr.trim()}\n  names: ${l.join(', ')}`)
          if (/\n\s+at .*:\d+:\d+\)?\n/.test(r.stderr)) found.push(`finctl ${run.args.join(' ')}: a stack trace\n${r.stderr}`)
        }
      }),
    )
    const tried = runs
    if (process.env.WALK_LOG)
      writeFileSync(
        process.env.WALK_LOG,
        JSON.stringify(
          runs.map((r) => r.args.join(' ')),
          null,
          1,
        ),
      )
    expect(tried.length).toBeGreaterThan(100)
    expect(found, found.join('\n')).toEqual([])
  }, 600_000)
})

/** `base` with `flag`'s value replaced by `value` (or the flag added). */
function replaceFlag(base: string[], flag: string, value: string): string[] {
  const i = base.indexOf(flag)
  if (i === -1) return [...base, flag, value]
  const out = [...base]
  out[i + 1] = value
  return out
}
