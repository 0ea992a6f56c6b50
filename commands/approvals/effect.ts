/**
 * A proposal's effect as lines a person reads before approving (`approvals show`, the diff): the
 * lock date it moves, the rows it deletes or changes with their amounts, the key it makes, the
 * policy before and after. `--json` prints the effect as the API gives it; this is for tables.
 */
import type { ActorName } from '../../src/cli/actor-names.js'
import { showAmount } from '../../src/cli/money.js'
import type { Proposal } from '../../src/domain/approvals/schemas.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { count } from '../../src/kernel/words.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : [])
const str = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))
const money = (amount: unknown, currency: unknown) => {
  const c = str(currency)
  return typeof amount === 'number' || typeof amount === 'string' ? `${showAmount(amount, c)} ${c}` : ''
}
/** At most this many rows are listed; the rest are counted (`--json` has them all). */
const LISTED = 50

function rows<T>(items: T[], line: (t: T) => string): string[] {
  const shown = items.slice(0, LISTED).map((t) => `  ${line(t)}`)
  if (items.length > LISTED) shown.push(`  … and ${items.length - LISTED} more (finctl approvals show ID --json lists them all)`)
  return shown
}

const txLine = (t: Json) =>
  [str(t.id), str(t.transaction_date), money(t.amount, t.currency_code), str(t.description)].filter(Boolean).join('  ')

function reopen(e: Json, name: ActorName, account: (id: string) => string): string[] {
  const close = obj(e.close)
  const opens = Array.isArray(e.opens) && e.opens.length ? e.opens.map(str) : [str(e.month)]
  const what = opens.length > 1 ? `${opens.slice(0, -1).join(', ')} and ${opens.at(-1)} open` : `${opens[0]} opens`
  const out = [`lock date ${str(e.lock_date)} → ${str(e.lock_date_after)}: ${what} for changes again`]
  if (e.close)
    out.push(
      `the close it undoes: ${str(close.period)} by ${name(str(close.actor))} at ${str(close.created_at)}${close.forced ? `, forced (${str(close.reason)})` : ''}`,
    )
  const figures = list(e.figures)
  if (figures.length) {
    out.push('its figures:')
    out.push(
      ...rows(
        figures,
        (f) => `${account(str(f.bank_account_id))}  ${count(Number(f.transactions), 'transaction')}  ${money(f.total, f.currency_code)}`,
      ),
    )
  }
  return out
}

function revert(e: Json): string[] {
  const statement = obj(e.statement)
  const out = [
    `deletes ${count(Number(e.deleted), 'transaction')}, gives back ${count(Number(e.unpaired), 'reconciled one')}${e.statement ? `; statement ${str(statement.file_name)} becomes "not uploaded"` : ''}`,
  ]
  out.push(...rows(list(e.transactions), (t) => `${str(t.action)}  ${txLine(t)}${t.edited ? '  (changed by hand)' : ''}`))
  return out
}

function bulk(e: Json): string[] {
  if (e.action === 'delete') {
    const totals = list(e.totals).map((t) => `${str(t.rows)} in ${str(t.currency_code)}, ${money(t.amount, t.currency_code)}`)
    return [
      `deletes ${count(Number(e.rows), 'transaction')} (over the threshold of ${str(e.threshold)}): ${totals.join('; ')}`,
      ...rows(list(e.transactions), txLine),
    ]
  }
  const changed = list(e.transactions)
  const run =
    e.action === 'rules'
      ? [
          `runs ${e.rule_id ? `rule ${str(e.rule_id)}` : 'the active rules'} over the transactions dated ${str(e.since)} or later${e.only_empty ? ', filling empty fields only' : ''}: ${str(e.matched)} match`,
        ]
      : []
  const change = (c: Json) =>
    Object.entries(c)
      .map(([field, v]) => `${field} ${str(obj(v).before) || '(none)'} → ${str(obj(v).after) || '(none)'}`)
      .join(', ')
  return [
    ...run,
    `changes ${str(e.changed)} of ${count(Number(e.rows), 'transaction')} (over the threshold of ${str(e.threshold)})`,
    ...rows(changed, (t) => `${str(t.id)}  ${str(t.transaction_date)}  ${change(obj(t.changes)) || 'no change'}`),
  ]
}

function keyWrite(e: Json): string[] {
  const k = obj(e.key)
  const scopes = Array.isArray(e.scopes) ? e.scopes.join(', ') : str(e.scopes)
  return [
    `creates key ${str(k.name)} (${str(k.key_prefix)}…) with the scopes ${scopes}${k.expires_at ? `, expiring ${str(k.expires_at)}` : ', never expiring'}`,
  ]
}

function people(e: Json): string[] {
  const who =
    e.action === 'invite'
      ? `invites ${str(e.email)} as ${str(e.role)}`
      : `makes ${str(obj(e.user).email)} ${str(e.role_after)} (now ${str(e.role_before)})`
  return [who, `as ${e.action === 'invite' ? str(e.role) : str(e.role_after)} they approve ${str(e.grants)}`]
}

function keyRoll(e: Json): string[] {
  const old = obj(e.rolls)
  return [
    `rolls key ${str(old.name)} (${str(old.key_prefix)}…): the old key is revoked ${Number(e.grace_seconds) ? `${str(e.grace_seconds)} s after the approval` : 'at the approval'}`,
  ]
}

function policy(e: Json): string[] {
  const steps = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : '(none)')
  return [
    `steps held for approval: ${steps(e.before)} → ${steps(e.after)}`,
    `bulk threshold: ${str(e.bulk_threshold_before) || '(none)'} → ${str(e.bulk_threshold_after) || '(none)'}`,
  ]
}

/** An agent's write (docs/agents.md): its reason, the row it is about, each field before → after, a note, a rule's run, an import's rows. */
function agent(p: Proposal, e: Json, account: (id: string) => string): string[] {
  const req = obj(p.request)
  const fields = (c: Json) =>
    Object.entries(c).map(([field, v]) => `${field} ${str(obj(v).before) || '(none)'} → ${str(obj(v).after) || '(none)'}`)
  // The agent's words are quoted: they are data, as every text from outside.
  const out = [`the agent's reason: ${req.reason ? JSON.stringify(str(req.reason)) : '(none given)'}`]
  const tx = obj(e.transaction)
  if (e.action === 'update') out.push(`on ${txLine(tx)}`, ...fields(obj(e.changes)).map((l) => `  ${l}`))
  else if (e.action === 'note') out.push(`on ${txLine(tx)}`, `  note: ${JSON.stringify(str(e.note))}`)
  else if (e.action === 'rule') {
    const rule = obj(e.rule)
    out.push(`creates rule ${JSON.stringify(str(rule.name))}: when ${JSON.stringify(rule.conditions)}, set ${JSON.stringify(rule.actions)}`)
    out.push(
      e.apply
        ? `and runs it over the transactions dated ${str(e.since)} or later${e.only_empty ? ', filling empty fields only' : ''}: changes ${count(Number(e.would_change), 'transaction')}`
        : `(not run over existing transactions: it would change ${count(Number(e.would_change), 'transaction')})`,
    )
    out.push(...rows(list(e.transactions), (t) => `${txLine(t)}  ${fields(obj(t.changes)).join(', ')}`))
  } else if (e.action === 'import') {
    const batch = obj(e.batch)
    const totals = list(e.totals).map((t) => `${str(t.rows)} in ${str(t.currency_code)}, ${money(t.amount, t.currency_code)}`)
    out.push(
      `lands ${count(Number(e.rows), 'row')} of ${JSON.stringify(str(batch.file_name))} (import batch ${str(batch.id)}) on ${account(str(batch.bank_account_id))}, ${str(e.first_date)} to ${str(e.last_date)}: ${totals.join('; ')}`,
    )
    out.push(...rows(list(e.transactions), (t) => `line ${str(t.line)}  ${txLine(t)}`))
  }
  return out
}

/** The effect's lines, each printable (no control characters from descriptions or names). */
export function effectLines(p: Proposal, name: ActorName, account: (id: string) => string = (id) => id): string[] {
  const e = obj(p.effect)
  const lines =
    p.kind === 'reopen'
      ? reopen(e, name, account)
      : p.kind === 'revert'
        ? revert(e)
        : p.kind === 'bulk'
          ? bulk(e)
          : p.kind === 'key-write'
            ? [...keyWrite(e), ...(e.rolls ? keyRoll(e) : [])]
            : p.kind === 'people'
              ? people(e)
              : p.kind === 'agent'
                ? agent(p, e, account)
                : policy(e)
  return lines.map(printableLine)
}
