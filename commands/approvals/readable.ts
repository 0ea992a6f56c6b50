/**
 * A proposal's request and result as lines a person reads (`approvals show`): each field a line,
 * people by email, accounts by name, nested records flattened, a revert's result said in words.
 * `--json` prints both as the API gives them.
 */
import type { ActorName } from '../../src/cli/actor-names.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { count } from '../../src/kernel/words.js'
import { resultWords } from './effect.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})

/** Names the lines use: an actor id (`user:…`, `key:…`) by its email, an account id by its name. */
export interface Names {
  actor: ActorName
  account: (id: string) => string
}

const ACTOR = /^(user|key):[0-9a-f-]{36}$/i
const words = (field: string) => field.replaceAll('_', ' ')

function value(field: string, v: unknown, n: Names): string {
  if (v === null || v === undefined || v === '') return '(none)'
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  if (Array.isArray(v)) {
    if (!v.length) return '(none)'
    const shown = v.slice(0, 3).map((x) => value(field, x, n))
    return v.length > 3 ? `${v.length}: ${shown.join(', ')}, … (--json lists them all)` : shown.join(', ')
  }
  if (typeof v === 'object') return JSON.stringify(v)
  const s = String(v)
  if (ACTOR.test(s)) return n.actor(s)
  if (field === 'bank_account_id' || field === 'account') return n.account(s)
  return s
}

/** Every field of `o` a line (`field: value`), nested records flattened (`filters.status: posted`). */
export function fieldLines(o: Json, n: Names, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? fieldLines(v as Json, n, `${prefix}${words(k)}.`)
      : [`${prefix}${words(k)}: ${value(k, v, n)}`],
  )
}

/** What the approved step did, in words where its step's view says it (effect.ts); its fields as lines otherwise. */
export function resultLines(p: Proposal, n: Names): string[] {
  const r = obj(p.result)
  if (!p.result) return []
  const words = resultWords(p)
  if (words) return words
  // A record (a reopen's close record, a policy, a key): its fields, the long lists counted.
  const shown = Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, Array.isArray(v) && v.some((x) => typeof x === 'object') ? count(v.length, 'item') : v]),
  )
  return fieldLines(shown, n).map(printableLine)
}
