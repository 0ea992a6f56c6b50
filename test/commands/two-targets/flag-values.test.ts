/**
 * A flag value the CLI can judge is a usage error (exit 2) before any request, its message naming
 * the flag and the value and saying what is wrong (docs/cli.md "Flag values"): dates, months,
 * amounts, currency codes, whole numbers in a range, enumerations, and --from/--to ranges. The test walks the command tree:
 * every flag of a kind the CLI judges, on every command, with a value of that kind that is wrong;
 * every flag whose name says it is an enumeration has its values known. What only the service can
 * judge stays exit 6 (or 5). Embedded and through `finctl serve`.
 */
import type { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerAll } from '../../../commands/index.js'
import { type FlagKind, flagKind } from '../../../src/cli/flag-values.js'
import { commandPath, createProgram } from '../../../src/cli/program.js'
import { memoryIO } from '../../helpers/in-process-cli.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
/** Flags whose names say enumeration, and the few that take something else under that name. */
const ENUM_NAMES =
  /^--(status|state|type|kind|sort|role|format|interval|log-level|cash-flow-category|accounting-category|reconciled|require-documents)$/
const NOT_ENUMS = new Set(['logs tail --status', 'events list --type'])

interface Judged {
  path: string[]
  flag: string
  kind: FlagKind
  /** Valid values for the command's other mandatory flags and arguments, so that only the flag judged is wrong. */
  rest: string[]
}

const good = (kind: FlagKind | undefined): string => {
  if (kind === undefined) return 'x'
  if (kind === 'date') return today
  if (kind === 'month') return today.slice(0, 7)
  if (kind === 'amount') return '1.00'
  if (kind === 'currency') return 'USD'
  return 'whole' in kind ? String(kind.whole.min) : kind.choices[0]
}

/** What `s` needs besides the flag judged: its required arguments and its other mandatory flags, with valid values. */
function restOf(s: Command, except?: string): string[] {
  const path = commandPath(s)
  const args = s.registeredArguments.filter((a) => a.required).map((a) => (a.name() === 'month' ? today.slice(0, 7) : 'x'))
  const mandatory = s.options
    .filter((m) => m.mandatory && m.long !== except)
    .flatMap((m) => [m.long!, good(flagKind(path, m.long!) ?? (m.argChoices ? { choices: m.argChoices } : undefined))])
  return [...args, ...mandatory]
}

/** Every judged flag of the tree, with what its command needs besides. */
async function judged(): Promise<{ flags: Judged[]; unknownEnums: string[] }> {
  const program = createProgram(memoryIO({}).io)
  await registerAll(program, () => async () => {})
  const flags: Judged[] = []
  const unknownEnums: string[] = []
  const walk = (c: Command) => {
    for (const s of c.commands) {
      const path = commandPath(s)
      for (const o of s.options) {
        if (!o.long || !(o.required || o.optional)) continue
        const kind = flagKind(path, o.long) ?? (o.argChoices ? { choices: o.argChoices } : undefined)
        if (!kind) {
          if (ENUM_NAMES.test(o.long) && !NOT_ENUMS.has(`${path} ${o.long}`)) unknownEnums.push(`${path} ${o.long}`)
          continue
        }
        flags.push({ path: path.split(' '), flag: o.long, kind, rest: restOf(s, o.long) })
      }
      walk(s)
    }
  }
  walk(program)
  return { flags, unknownEnums }
}

/** A wrong value of `kind`, and what the message must say of it. */
function wrong(kind: FlagKind): [string, string] {
  if (kind === 'date') return ['2026-11-31', 'November has 30 days']
  if (kind === 'month') return ['2026-13', 'there is no month 13']
  if (kind === 'amount') return ['12abc', 'not a decimal amount']
  if (kind === 'currency') return ['usdd', 'not an ISO 4217 currency code (did you mean']
  if ('whole' in kind) return [String(kind.whole.max + 1), `not a whole number from ${kind.whole.min} to ${kind.whole.max}`]
  const first = kind.choices[0]
  // The first value with its last two letters swapped: near enough to be suggested.
  const typo = `${first.slice(0, -2)}${first.slice(-1)}${first.slice(-2, -1)}`
  return [typo, `did you mean ${first}`]
}

describe.each(TARGET_KINDS)('flag values the CLI judges (%s)', (kind) => {
  let t: Target
  beforeAll(async () => {
    t = await openTarget(kind, 'flagvalues')
    await t.ok(['accounts', 'create', '--name', 'Main', '--type', 'checking'])
  })
  afterAll(() => t?.close())

  it('every flag of a kind the CLI judges, on every command: exit 2 naming the flag and the value, why it is wrong', async () => {
    const { flags, unknownEnums } = await judged()
    expect(unknownEnums, 'flags named as enumerations whose values the CLI does not know').toEqual([])
    const kinds = new Set(flags.map((f) => (typeof f.kind === 'string' ? f.kind : 'whole' in f.kind ? 'whole' : 'choice')))
    expect([...kinds].sort()).toEqual(['amount', 'choice', 'currency', 'date', 'month', 'whole'])
    for (const f of flags) {
      const [value, why] = wrong(f.kind)
      const args = [...f.path, ...f.rest, f.flag, value]
      const r = await t.run(args)
      expect(r.code, `finctl ${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr, `finctl ${args.join(' ')}`).toContain(`error: ${f.flag} ${value}: `)
      expect(r.stderr, `finctl ${args.join(' ')}`).toContain(why)
    }
  }, 240_000)

  it('a range that ends before it starts: exit 2 naming both flags, on every command with --from and --to', async () => {
    const program = createProgram(memoryIO({}).io)
    await registerAll(program, () => async () => {})
    const withRange: Command[] = []
    const walk = (c: Command) => {
      for (const s of c.commands) {
        if (s.options.some((o) => o.long === '--from') && s.options.some((o) => o.long === '--to')) withRange.push(s)
        walk(s)
      }
    }
    walk(program)
    expect(withRange.length).toBeGreaterThan(5)
    for (const s of withRange) {
      const args = [...commandPath(s).split(' '), ...restOf(s), '--from', '2026-10', '--to', '2026-09']
      const r = await t.run(args)
      expect(r.code, `finctl ${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain('--from 2026-10 --to 2026-09: the period would end on 2026-09-30, before it starts on 2026-10-01')
    }
  })

  it("the issue's cases, word for word", async () => {
    const cases: Array<[string[], string]> = [
      [
        ['tx', 'create', '--account', 'Main', '--date', '2026-11-31', '--amount', '1', '--description', 'x'],
        '--date 2026-11-31: November has 30 days',
      ],
      [['tx', 'list', '--status', 'postd'], '--status postd: did you mean posted?'],
      [
        ['tx', 'create', '--account', 'Main', '--date', today, '--amount', 'abc', '--description', 'x'],
        '--amount abc: not a decimal amount',
      ],
      [
        ['tx', 'create', '--account', 'Main', '--date', today, '--amount', '12,34', '--description', 'x'],
        '--amount 12,34: commas only group',
      ],
      [['reports', 'summary', '--from', '2026-10', '--to', '2026-09'], '--from 2026-10 --to 2026-09: the period would end'],
    ]
    for (const [args, message] of cases) {
      const r = await t.run(args)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain(message)
    }
  })

  it('what only the service can judge stays its own: an amount with more decimals than its currency (6), an id (5)', async () => {
    const decimals = await t.run(['tx', 'create', '--account', 'Main', '--date', today, '--amount', '1.234', '--description', 'x'])
    expect(decimals.code).toBe(6)
    expect(decimals.stderr).toContain('--amount at most 2 decimal places for this currency (USD)')
    const id = await t.run(['tx', 'get', '0123456789abcdef'])
    expect(id.code).toBe(5)
  })
})
