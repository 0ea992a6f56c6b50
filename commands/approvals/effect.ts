/**
 * A proposal's effect as lines a person reads before approving (`approvals show`, the diff): the
 * lock date it moves, the rows it deletes or changes with their amounts, the key it makes, the
 * policy before and after; and what an approved one did. `--json` prints the effect as the API
 * gives it; this is for tables. One entry a step of the registry (src/domain/approvals/registry.ts),
 * typed by its schemas: the compiler refuses a step without one, or an entry reading a field its
 * effect does not have.
 */
import type { ActorName } from '../../src/cli/actor-names.js'
import { showAmount } from '../../src/cli/money.js'
import type { StepName } from '../../src/domain/approvals/registry.js'
import type { Proposal, ProposalOf } from '../../src/domain/approvals/schemas.js'
import { printableLine } from '../../src/kernel/terminal-text.js'
import { count } from '../../src/kernel/words.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const str = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))
const money = (amount: number | string, currency: string) => `${showAmount(amount, currency)} ${currency}`
/** At most this many rows are listed; the rest are counted (`--json` has them all). */
const LISTED = 50
/** A request's body or a row, on one line of at most this many characters. */
const CLIPPED = 300
const clip = (text: string) => (text.length > CLIPPED ? `${text.slice(0, CLIPPED - 1)}…` : text)

function rows<T>(items: T[], line: (t: T) => string): string[] {
  const shown = items.slice(0, LISTED).map((t) => `  ${line(t)}`)
  if (items.length > LISTED) shown.push(`  … and ${items.length - LISTED} more (finctl approvals show ID --json lists them all)`)
  return shown
}

type Row = { id?: string; transaction_date: string; amount: number | string; currency_code: string; description: string }
const txLine = (t: Row) => [t.id, t.transaction_date, money(t.amount, t.currency_code), t.description].filter(Boolean).join('  ')
/** Each field a change touches: `field before → after`. */
const fields = (c: Record<string, { before?: unknown; after?: unknown }>) =>
  Object.entries(c).map(([field, v]) => `${field} ${str(v.before) || '(none)'} → ${str(v.after) || '(none)'}`)
const totalsOf = (totals: { currency_code: string; rows: number; amount: number }[]) =>
  totals.map((t) => `${t.rows} in ${t.currency_code}, ${money(t.amount, t.currency_code)}`).join('; ')

/** What the lines name: people by email, accounts by name. */
export interface EffectNames {
  name: ActorName
  account: (id: string) => string
}

interface View<K extends StepName> {
  /** The effect approving it would have. */
  effect: (p: ProposalOf<K>, n: EffectNames) => string[]
  /** What the approved step did, in words; without one, the result's fields are its lines. */
  result?: (r: Json) => string[]
}

const VIEWS: { [K in StepName]: View<K> } = {
  reopen: {
    effect: ({ effect: e }, { name, account }) => {
      const opens = e.opens?.length ? e.opens : [e.month]
      const what = opens.length > 1 ? `${opens.slice(0, -1).join(', ')} and ${opens.at(-1)} open` : `${opens[0]} opens`
      const out = [`lock date ${str(e.lock_date)} → ${e.lock_date_after}: ${what} for changes again`]
      const close = e.close
      if (close)
        out.push(
          `the close it undoes: ${close.period} by ${name(close.actor)} at ${close.created_at}${close.forced ? `, forced (${str(close.reason)})` : ''}`,
        )
      const figures = e.figures ?? []
      if (figures.length) {
        out.push('its figures:')
        out.push(
          ...rows(
            figures,
            (f) => `${account(f.bank_account_id)}  ${count(f.transactions, 'transaction')}  ${money(f.total, f.currency_code)}`,
          ),
        )
      }
      return out
    },
  },
  revert: {
    effect: ({ effect: e }) => [
      `deletes ${count(e.deleted, 'transaction')}, gives back ${count(e.unpaired, 'reconciled one')}${e.statement ? `; statement ${e.statement.file_name} becomes "not uploaded"` : ''}`,
      ...rows(e.transactions, (t) => `${t.action}  ${txLine(t)}${t.edited ? '  (changed by hand)' : ''}`),
    ],
    result: (r) => {
      const batch = obj(r.batch)
      const statement = obj(r.statement)
      const docs = Array.isArray(r.documents) ? r.documents.map(obj) : []
      return [
        `reverted import batch ${String(batch.id ?? '')} (${String(batch.file_name ?? '')}): ${count(Number(r.deleted), 'row')} deleted, ${count(Number(r.unpaired), 'pairing')} undone`,
        ...(r.statement ? [`statement ${String(statement.file_name ?? '')} deleted: the file can be uploaded again`] : []),
        ...(docs.length ? [`${count(docs.length, 'document')} unlinked: ${docs.map((d) => String(d.file_name)).join(', ')}`] : []),
      ]
    },
  },
  bulk: {
    effect: ({ effect: e }) => {
      if ('action' in e && e.action === 'delete')
        return [
          `deletes ${count(e.rows, 'transaction')} (over the threshold of ${str(e.threshold)}): ${totalsOf(e.totals)}`,
          ...rows(e.transactions, txLine),
        ]
      const run =
        'action' in e
          ? [
              `runs ${e.rule_id ? `rule ${e.rule_id}` : 'the active rules'} over the transactions dated ${e.since} or later${e.only_empty ? ', filling empty fields only' : ''}: ${e.matched} match`,
            ]
          : []
      return [
        ...run,
        `changes ${e.changed} of ${count(e.rows, 'transaction')} (over the threshold of ${str(e.threshold)})`,
        ...rows(e.transactions, (t) => `${t.id}  ${t.transaction_date}  ${fields(t.changes).join(', ') || 'no change'}`),
      ]
    },
    result: (r) => {
      const changed = r.updated ?? r.deleted
      return [`${r.deleted !== undefined ? 'deleted' : 'updated'} ${count(Number(changed), 'transaction')}`]
    },
  },
  'key-write': {
    effect: ({ effect: e }) => {
      const k = e.key
      const out = [
        `creates key ${k.name} (${k.key_prefix}…) with the scopes ${e.scopes.join(', ')}${k.expires_at ? `, expiring ${k.expires_at}` : ', never expiring'}`,
      ]
      const old = e.rolls
      if (old)
        out.push(
          `rolls key ${old.name} (${old.key_prefix}…): the old key is revoked ${e.grace_seconds ? `${e.grace_seconds} s after the approval` : 'at the approval'}`,
        )
      return out
    },
  },
  policy: {
    effect: ({ effect: e }) => {
      const steps = (v: string[]) => (v.length ? v.join(', ') : '(none)')
      return [
        `steps held for approval: ${steps(e.before)} → ${steps(e.after)}`,
        `bulk threshold: ${str(e.bulk_threshold_before) || '(none)'} → ${str(e.bulk_threshold_after) || '(none)'}`,
      ]
    },
  },
  people: {
    effect: ({ effect: e }) =>
      e.action === 'invite'
        ? [`invites ${e.email} as ${e.role}`, `as ${e.role} they approve ${e.grants}`]
        : [`makes ${e.user.email} ${e.role_after} (now ${e.role_before})`, `as ${e.role_after} they approve ${e.grants}`],
  },
  /** An agent's write (docs/agents.md): its reason, the row it is about, each field before → after, a note, a rule's run, an import's rows. */
  agent: {
    effect: ({ request, effect: e }, { account }) => {
      // The agent's words are quoted: they are data, as every text from outside.
      const out = [`the agent's reason: ${request.reason ? JSON.stringify(request.reason) : '(none given)'}`]
      if (e.action === 'update') out.push(`on ${txLine(e.transaction)}`, ...fields(e.changes).map((l) => `  ${l}`))
      else if (e.action === 'note') out.push(`on ${txLine(e.transaction)}`, `  note: ${JSON.stringify(e.note)}`)
      else if (e.action === 'rule') {
        const rule = e.rule
        out.push(`creates rule ${JSON.stringify(rule.name)}: when ${JSON.stringify(rule.conditions)}, set ${JSON.stringify(rule.actions)}`)
        out.push(
          e.apply
            ? `and runs it over the transactions dated ${e.since} or later${e.only_empty ? ', filling empty fields only' : ''}: changes ${count(e.would_change, 'transaction')}`
            : `(not run over existing transactions: it would change ${count(e.would_change, 'transaction')})`,
        )
        out.push(...rows(e.transactions, (t) => `${txLine(t)}  ${fields(t.changes).join(', ')}`))
      } else if (e.action === 'request') {
        if (request.action !== 'request') return out
        out.push(`asks ${request.method} ${request.path}${request.query}: done as you when you approve it`)
        const body = request.body
        if (body && 'json' in body) out.push(`  body: ${clip(JSON.stringify(body.json))}`)
        else if (body) out.push(`  body: ${count(body.bytes, 'byte')} of ${str(request.content_type)}`)
        for (const n of e.named) {
          const row = n.row as Row | null
          if (n.resource === 'transactions' && row) out.push(`on ${txLine(row)}`)
          else out.push(`on ${n.resource.replace(/_/g, ' ')} ${n.id}${row ? `: ${clip(JSON.stringify(row))}` : ' (none yet)'}`)
        }
        if (e.books) out.push(`bound to the books as they stand (audit entry #${e.books.audit_id}): any change to them fails it`)
      } else {
        const batch = e.batch
        out.push(
          `lands ${count(e.rows, 'row')} of ${JSON.stringify(str(batch.file_name))} (import batch ${batch.id}) on ${account(batch.bank_account_id)}, ${str(e.first_date)} to ${str(e.last_date)}: ${totalsOf(e.totals)}`,
        )
        out.push(...rows(e.transactions, (t) => `line ${t.line}  ${txLine(t)}`))
      }
      return out
    },
  },
}

/**
 * The view of the proposal's step. The table is typed by step, and the proposal's kind picks the
 * entry: the cast only says so to a compiler that cannot follow a union by its kind.
 */
const viewOf = (p: Proposal) => VIEWS[p.kind] as { effect: (p: Proposal, n: EffectNames) => string[]; result?: (r: Json) => string[] }

/** The effect's lines, each printable (no control characters from descriptions or names). */
export function effectLines(p: Proposal, name: ActorName, account: (id: string) => string = (id) => id): string[] {
  return viewOf(p).effect(p, { name, account }).map(printableLine)
}

/** What the approved step did in words, when its view says; null when its fields are the lines. */
export function resultWords(p: Proposal): string[] | null {
  const words = viewOf(p).result
  return p.result && words ? words(p.result).map(printableLine) : null
}
