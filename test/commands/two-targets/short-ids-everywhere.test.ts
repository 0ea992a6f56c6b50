/**
 * Every id a table prints is taken back (docs/cli.md "Short ids"): each list command's id column,
 * as a terminal's table shows it (the last 8 characters), is read back by its show or get command;
 * and every command that takes an id (an argument or a flag: --tx, --key-id, --endpoint, --key,
 * --ids, --account) is run with the short form and must reach the whole id (the request line of
 * --verbose names it), embedded and through `finctl serve`. The commands are read from the tree: a
 * new command with an id is covered here, or this fails naming it.
 */
import { writeFileSync } from 'node:fs'
import type { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerAll } from '../../../commands/index.js'
import { createProgram } from '../../../src/cli/program.js'
import { minimalPdf } from '../../helpers/document-files.js'
import { InBackground } from '../../helpers/in-process-background.js'
import { memoryIO } from '../../helpers/in-process-cli.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const short = (id: string) => id.slice(-8)
const ID_ARGS = new Set(['id', 'user', 'batch'])
const ID_FLAGS = new Set(['--tx', '--key-id', '--endpoint', '--key', '--ids', '--account'])

/** Every command path with an id argument, and every (path, flag) of an id flag. */
async function idTakers(): Promise<string[]> {
  const program = createProgram(memoryIO({}).io)
  await registerAll(program, () => async () => {})
  const out: string[] = []
  const walk = (c: Command, path: string[]) => {
    for (const s of c.commands) {
      const p = [...path, s.name()].join(' ')
      if (s.registeredArguments.some((a) => ID_ARGS.has(a.name()))) out.push(p)
      for (const o of s.options) if (o.long && ID_FLAGS.has(o.long)) out.push(`${p} ${o.long}`)
      walk(s, [...path, s.name()])
    }
  }
  walk(program, [])
  return out.sort()
}

/** The ID column of a terminal's table (box-drawn), row by row. */
function idCells(table: string): string[] {
  const rows = table.split('\n').filter((l) => l.startsWith('│'))
  const cells = (l: string) => l.split('│').map((c) => c.trim())
  const at = cells(rows[0]).indexOf('ID')
  expect(at, table).toBeGreaterThan(0)
  return rows
    .slice(1)
    .map((l) => cells(l)[at])
    .filter(Boolean)
}

describe.each(TARGET_KINDS)('short ids everywhere (%s)', (kind) => {
  let t: Target
  const ids: Record<string, string> = {}
  const create = async (args: string[]) => (await t.json([...args, '--json'])).id as string

  beforeAll(async () => {
    t = await openTarget(kind, 'shortids', { serveArgs: ['--webhooks-allow-private'] })
    const account = async (name: string) => create(['accounts', 'create', '--name', name, '--type', 'checking'])
    ids.account = await account('Main')
    ids.account2 = await account('Spare')
    const tx = async (d: string) =>
      create(['tx', 'create', '--account', ids.account, '--date', today, '--amount', '-12.00', '--description', d])
    ids.tx = await tx('Paper')
    ids.tx2 = await tx('Ink')
    const csv = t.sb.path('bank.csv')
    writeFileSync(csv, `Date,Description,Amount\n${today},Stamps,-3.00\n`)
    ids.batch = (await t.json(['tx', 'import', csv, '--account', ids.account, '--json'])).batch_id
    const review = t.sb.path('review.csv')
    writeFileSync(review, `Date,Description,Amount\n${today},Toner,-30.00\n`)
    ids.review = (await t.json(['tx', 'import', review, '--account', ids.account, '--review', '--json'])).batch_id
    ids.review2 = (await t.json(['tx', 'import', review, '--account', ids.account, '--review', '--json'])).batch_id
    const stmt = t.sb.path('stmt.csv')
    writeFileSync(stmt, `Date,Description,Amount\n${today},Fee,-1.00\n`)
    ids.statement = await create(['statements', 'upload', stmt, '--account', ids.account2])
    const pdf = t.sb.path('receipt.pdf')
    writeFileSync(pdf, minimalPdf('Receipt 12.00'))
    ids.doc = (await t.json(['docs', 'add', pdf, '--no-auto-link', '--json']))[0].id
    ids.rule = await create(['rules', 'create', '--description-contains', 'paper', '--set', 'category=Office'])
    ids.rule2 = await create(['rules', 'create', '--description-contains', 'ink', '--set', 'category=Office'])
    ids.webhook = await create(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'transaction.created'])
    ids.webhook2 = await create(['webhooks', 'create', '--url', 'http://127.0.0.1:9/other', '--events', 'transaction.created'])
    const key = async (name: string) => create(['keys', 'create', '--name', name, '--scopes', 'read', '--output-file', t.sb.path(name)])
    ids.key = await key('auditor')
    ids.key2 = await key('spare')
    ids.user = (await t.json(['users', 'list', '--json']))[0].id
    ids.invitation = await create(['users', 'invite', '--email', 'carol@shortids.test', '--role', 'viewer'])
    ids.invitation2 = await create(['users', 'invite', '--email', 'dave@shortids.test', '--role', 'viewer'])
    ids.event = (await t.json(['events', 'list', '--limit', '1', '--json']))[0].id
    await t.ok(['policy', 'set', '--require-approval', 'revert'])
    const proposal = async () => {
      const r = await t.run(['imports', 'revert', ids.batch, '--yes', '--json'])
      expect(r.code, r.stderr).toBe(15)
      return JSON.parse(r.stdout).id as string
    }
    ids.proposal = await proposal()
    ids.proposal2 = await proposal()
    const recurring = async (name: string) =>
      create(['recurring', 'add', '--name', name, '--amount', '-50.00', '--interval', 'monthly', '--start', today])
    ids.recurring = await recurring('Rent')
    ids.recurring2 = await recurring('Cleaning')
  }, 240_000)
  afterAll(() => t?.close())

  it("each list's id column, as a terminal shows it, is read back by its show or get command", async () => {
    const walks: Array<[list: string[], show: (id: string) => string[]]> = [
      [['accounts', 'list'], (id) => ['accounts', 'get', id]],
      [['tx', 'list'], (id) => ['tx', 'get', id]],
      [['statements', 'list'], (id) => ['statements', 'get', id]],
      [['docs', 'list'], (id) => ['docs', 'show', id]],
      [['imports', 'list'], (id) => ['imports', 'show', id]],
      [['rules', 'list'], (id) => ['rules', 'get', id]],
      [['webhooks', 'list'], (id) => ['webhooks', 'get', id]],
      [['keys', 'list'], (id) => ['keys', 'usage', '--key-id', id]],
      [['approvals', 'list'], (id) => ['approvals', 'show', id]],
      [['users', 'list'], (id) => ['users', 'set-role', id, '--role', 'owner']],
      [['users', 'invitations'], (id) => ['users', 'revoke-invite', id]],
      // Accepting an accepted item changes nothing: its readback.
      [['recurring', 'list'], (id) => ['recurring', 'accept', id]],
    ]
    for (const [list, show] of walks) {
      const table = await t.run(list, { tty: { stdout: true }, columns: 80, env: { NO_COLOR: '1' } })
      expect(table.code, `${list.join(' ')}: ${table.stderr}`).toBe(0)
      const cells = idCells(table.stdout)
      expect(cells.length, `${list.join(' ')}:\n${table.stdout}`).toBeGreaterThan(0)
      for (const cell of cells) {
        expect(cell, `${list.join(' ')} shows an id by its last 8 characters`).toMatch(/^[0-9a-f]{8}$/)
        const r = await t.run(['-v', ...show(cell), '--json'])
        expect(r.code, `finctl ${show(cell).join(' ')} (${kind}): ${r.stderr}`).toBe(0)
        // The whole id, in the request (--verbose) or the answer.
        expect(`${r.stderr}${r.stdout}`).toMatch(new RegExp(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}${cell}`))
      }
    }
  }, 240_000)

  it('every command that takes an id takes 6+ hex digits from either end, and reaches the whole id', async () => {
    const s = (k: string) => short(ids[k])
    // A UUIDv7's first 12 hex digits are its millisecond, which ids made in one millisecond share.
    const start = (k: string) => ids[k].replaceAll('-', '').slice(0, 16)
    /** Each command with an id: its line with a short id, the id it must reach, and the exit codes it may end with. */
    const lines: Record<string, { args: string[]; id: string; codes?: number[] }> = {
      'accounts delete': { args: ['accounts', 'delete', s('account2'), '--yes'], id: 'account2', codes: [0, 6] },
      'accounts get': { args: ['accounts', 'get', s('account')], id: 'account' },
      'accounts transactions': { args: ['accounts', 'transactions', s('account')], id: 'account' },
      'accounts update': { args: ['accounts', 'update', s('account'), '--institution-name', 'Bank'], id: 'account' },
      'approvals approve': { args: ['approvals', 'approve', s('proposal')], id: 'proposal', codes: [0, 4, 6] },
      'approvals reject': { args: ['approvals', 'reject', s('proposal2'), '--reason', 'no'], id: 'proposal2', codes: [0, 4, 6] },
      'approvals show': { args: ['approvals', 'show', s('proposal')], id: 'proposal' },
      'docs add --tx': { args: ['docs', 'add', t.sb.path('receipt.pdf'), '--tx', s('tx')], id: 'tx' },
      'docs get': { args: ['docs', 'get', s('doc'), '-o', t.sb.path('doc-out.pdf')], id: 'doc' },
      'docs link': { args: ['docs', 'link', s('doc'), '--tx', s('tx2')], id: 'doc' },
      'docs link --tx': { args: ['docs', 'link', s('doc'), '--tx', start('tx2')], id: 'tx2' },
      'docs list --tx': { args: ['docs', 'list', '--tx', s('tx')], id: 'tx' },
      'docs show': { args: ['docs', 'show', start('doc')], id: 'doc' },
      'docs suggest': { args: ['docs', 'suggest', s('doc')], id: 'doc' },
      'docs unlink': { args: ['docs', 'unlink', s('doc'), '--tx', s('tx2')], id: 'doc' },
      'docs unlink --tx': { args: ['docs', 'unlink', s('doc'), '--tx', s('tx')], id: 'tx' },
      'events get': { args: ['events', 'get', ids.event], id: 'event' },
      'events resend': { args: ['events', 'resend', ids.event, '--endpoint', s('webhook')], id: 'event', codes: [0, 14] },
      'events resend --endpoint': { args: ['events', 'resend', ids.event, '--endpoint', s('webhook')], id: 'webhook', codes: [0, 14] },
      'export --account': { args: ['export', '--format', 'csv', '--account', s('account')], id: 'account' },
      'forecast --account': { args: ['forecast', '--days', '5', '--account', s('account'), '--json'], id: 'account' },
      'imports apply': { args: ['imports', 'apply', s('review')], id: 'review' },
      'imports discard': { args: ['imports', 'discard', s('review2')], id: 'review2' },
      'imports list --account': { args: ['imports', 'list', '--account', s('account')], id: 'account' },
      'imports remap': { args: ['imports', 'remap', s('review2'), '--invert-sign'], id: 'review2', codes: [6] },
      'imports revert': { args: ['imports', 'revert', s('batch'), '--dry-run'], id: 'batch' },
      'imports set': { args: ['imports', 'set', s('review2'), '--line', '2', '--category', 'Office'], id: 'review2', codes: [6] },
      'imports show': { args: ['imports', 'show', start('batch')], id: 'batch' },
      'keys revoke': { args: ['keys', 'revoke', s('key2'), '--yes'], id: 'key2' },
      'keys roll': { args: ['keys', 'roll', s('key'), '--output-file', t.sb.path('rolled')], id: 'key' },
      'keys usage --key-id': { args: ['keys', 'usage', '--key-id', s('key')], id: 'key' },
      'recurring accept': { args: ['recurring', 'accept', start('recurring')], id: 'recurring' },
      'recurring add --account': {
        args: [
          'recurring',
          'add',
          '--name',
          'Water',
          '--amount',
          '-9.00',
          '--interval',
          'yearly',
          '--start',
          today,
          '--account',
          s('account'),
          '--json',
        ],
        id: 'account',
      },
      'recurring delete': { args: ['recurring', 'delete', s('recurring2')], id: 'recurring2' },
      'reports cash-flow --account': { args: ['reports', 'cash-flow', '--account', s('account')], id: 'account' },
      'reports summary --account': { args: ['reports', 'summary', '--account', s('account')], id: 'account' },
      'rules apply': { args: ['rules', 'apply', s('rule'), '--dry-run'], id: 'rule' },
      'rules create --account': { args: ['rules', 'create', '--account', s('account'), '--set', 'category=X'], id: 'account' },
      'rules delete': { args: ['rules', 'delete', s('rule2'), '--yes'], id: 'rule2' },
      'rules get': { args: ['rules', 'get', s('rule')], id: 'rule' },
      'rules test': { args: ['rules', 'test', s('rule')], id: 'rule' },
      'rules update': { args: ['rules', 'update', s('rule'), '--name', 'Paper'], id: 'rule' },
      'rules update --account': { args: ['rules', 'update', s('rule'), '--account', s('account')], id: 'account' },
      'statements file': { args: ['statements', 'file', s('statement'), '-o', t.sb.path('stmt-out.csv')], id: 'statement' },
      'statements get': { args: ['statements', 'get', s('statement')], id: 'statement' },
      'statements list --account': { args: ['statements', 'list', '--account', s('account2')], id: 'account2' },
      'statements transactions': { args: ['statements', 'transactions', s('statement')], id: 'statement' },
      'statements upload --account': { args: ['statements', 'upload', t.sb.path('bank.csv'), '--account', s('account2')], id: 'account2' },
      'tx bulk-delete --account': { args: ['tx', 'bulk-delete', '--account', s('account'), '--dry-run'], id: 'account' },
      'tx bulk-delete --ids': { args: ['tx', 'bulk-delete', '--ids', s('tx2'), '--dry-run'], id: 'tx2' },
      'tx bulk-update --account': {
        args: ['tx', 'bulk-update', '--account', s('account'), '--set', 'category=A', '--dry-run'],
        id: 'account',
      },
      'tx bulk-update --ids': { args: ['tx', 'bulk-update', '--ids', s('tx'), '--set', 'category=A', '--dry-run'], id: 'tx' },
      'tx create --account': {
        args: ['tx', 'create', '--account', s('account'), '--date', today, '--amount', '-1.00', '--description', 'Pens'],
        id: 'account',
      },
      'tx delete': { args: ['tx', 'delete', s('tx2'), '--yes'], id: 'tx2' },
      'tx get': { args: ['tx', 'get', s('tx')], id: 'tx' },
      'tx import --account': { args: ['tx', 'import', t.sb.path('bank.csv'), '--account', s('account')], id: 'account' },
      'tx list --account': { args: ['tx', 'list', '--account', s('account')], id: 'account' },
      'tx update': { args: ['tx', 'update', s('tx'), '--category', 'Office'], id: 'tx' },
      'tx update --account': { args: ['tx', 'update', s('tx'), '--account', s('account')], id: 'account' },
      'users disable': { args: ['users', 'disable', s('user'), '--yes'], id: 'user', codes: [4, 6] },
      'users revoke-invite': { args: ['users', 'revoke-invite', s('invitation')], id: 'invitation', codes: [0, 6] },
      'users set-role': { args: ['users', 'set-role', s('user'), '--role', 'owner'], id: 'user' },
      'webhooks delete': { args: ['webhooks', 'delete', s('webhook2'), '--yes'], id: 'webhook2' },
      'webhooks get': { args: ['webhooks', 'get', s('webhook')], id: 'webhook' },
      'webhooks test': { args: ['webhooks', 'test', s('webhook')], id: 'webhook', codes: [14] },
      'webhooks update': { args: ['webhooks', 'update', s('webhook'), '--description', 'hook'], id: 'webhook' },
    }
    // A command that runs until Ctrl-C: `logs tail --key`.
    const tail = new InBackground(t.sb, ['-v', 'logs', 'tail', '--key', s('key')], {
      env: t.kind === 'remote' ? { FINCTL_PROFILE: 'remote' } : {},
    })
    await tail.until(() => tail.stderr.includes('tailing'), 'the tail starts')
    expect(await tail.interrupt(), tail.stderr).toBe(0)
    // The key is looked up among the company's keys, then tailed (the request line hides its value).
    expect(tail.stderr).toMatch(/GET \S+\/api-keys\?status=all -> 200[\s\S]*\/api-v1\/logs\?key=/)
    expect((await idTakers()).filter((p) => !(p in lines) && p !== 'logs tail --key')).toEqual([])
    for (const [name, { args, id, codes = [0] }] of Object.entries(lines)) {
      const r = await t.run(['-v', ...args])
      expect(codes, `finctl ${args.join(' ')} (${name}, ${kind}) exited ${r.code}:\n${r.stderr}`).toContain(r.code)
      // The whole id in a request line (--verbose), or in the answer of a request that carries it in its body.
      expect(`${r.stderr}${r.stdout}`, `${name}: the request or the answer names ${ids[id]}`).toContain(ids[id])
    }
  }, 360_000)
})
