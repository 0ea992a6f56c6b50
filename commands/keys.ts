/** finctl keys list | show | usage | create | roll | revoke */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { API_KEY_SCOPES } from '../src/kernel/vocabulary.js'
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../src/domain/api-keys/schemas.js'
import type { Context } from '../src/cli/context.js'
import type { Client } from '../src/client/client.js'
import { keyColumns, keyStatus } from '../src/cli/columns.js'
import { resolveListedId } from '../src/cli/short-ids.js'
import { parseDuration } from '../src/cli/format.js'
import { note, printList, printRecord, warn } from '../src/cli/output.js'
import { confirmOrYes, promptCheckbox, promptText, valueOrPrompt } from '../src/cli/prompts.js'
import { wholeNumber } from '../src/cli/flags.js'
import type { Runner } from '../src/cli/runner.js'
import { storageWords } from '../src/cli/credentials.js'
import { validProfileName } from '../src/cli/profiles.js'
import { OutputFile } from '../src/jobs/output-file.js'

export function registerKeys(program: Command, run: Runner): void {
  const keys = program.command('keys').description('API keys of the company')
  keys
    .command('list')
    .description('list the API keys (needs `finctl login`)')
    .option('--status <status>', 'active, revoked, expired or all', 'all')
    .addHelpText('after', '\nExample:\n  finctl keys list --status active\n')
    .action(run(runList))
  keys
    .command('show')
    .description('show the API key in use')
    .addHelpText('after', '\nExample:\n  finctl keys show --json\n')
    .action(run(runShow))
  keys
    .command('usage')
    .description('usage statistics of the key in use, or of --key-id')
    .option('--key-id <id>', 'another key of the company (needs `finctl login`)')
    .option('--recent <n>', 'how many recent requests to list (1-100)', '20')
    .addHelpText('after', '\nExamples:\n  finctl keys usage\n  finctl keys usage --key-id $KEY_ID --recent 50\n')
    .action(run(runUsage))
  keys
    .command('create')
    .description('create an API key; the full key is shown once')
    .option('--name <name>', 'label of the key')
    .option('--scopes <list>', 'comma-separated: read,write,transactions')
    .option('--description <text>', 'free text')
    .option('--expires-at <time>', 'ISO 8601 expiry time')
    .option('--expires-in <duration>', 'expiry from now: 90d, 12h, 2w')
    .option('--rate-limit-per-minute <n>', 'requests per minute (default 60)')
    .option('--rate-limit-per-day <n>', 'requests per day (default 10000)')
    .option('--save-profile <name>', 'store the new key in this profile instead of printing it')
    .option('--output-file <path>', 'write the new key to this file (mode 0600) instead of printing it')
    .option('--overwrite', 'let --output-file replace an existing file')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl keys create --name ci --scopes read,transactions --expires-in 90d\n  finctl keys create --name import --scopes write --save-profile importer\n',
    )
    .action(run(runCreate))
  keys
    .command('roll')
    .argument('<id>')
    .description(
      'replace a key without an outage: a successor with the same name, scopes and limits, shown once; the old key works until the grace ends',
    )
    .option('--grace <duration>', 'how long the old key keeps working: 1h, 30m, 2d (at most 7d; 0 revokes it at once)', '1h')
    .option('--save-profile <name>', 'store the new key in this profile instead of printing it')
    .option('--output-file <path>', 'write the new key to this file (mode 0600) instead of printing it')
    .option('--overwrite', 'let --output-file replace an existing file')
    .addHelpText('after', '\nExamples:\n  finctl keys roll $KEY_ID --grace 2h\n  finctl keys roll $KEY_ID --save-profile importer\n')
    .action(run(runRoll))
  keys
    .command('revoke')
    .argument('<id>')
    .description('revoke an API key')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl keys revoke $KEY_ID --yes\n')
    .action(run(runRevoke))
}

async function runList(ctx: Context, o: { status: string }): Promise<number> {
  if (!['active', 'revoked', 'expired', 'all'].includes(o.status))
    throw new AppError('usage', '--status must be active, revoked, expired or all')
  const client = await ctx.client()
  const keys = await client.keys.list(o.status)
  await printList(ctx.io, ctx.printer, keys, keyColumns, { empty: 'no API keys' })
  return 0
}

async function runShow(ctx: Context): Promise<number> {
  const client = await ctx.client()
  const key = await client.keys.me()
  if (ctx.printer.format === 'table') await printRecord(ctx.io, ctx.printer, { ...key, status: keyStatus(key) })
  else await printRecord(ctx.io, ctx.printer, key)
  return 0
}

async function runUsage(ctx: Context, o: { keyId?: string; recent: string }): Promise<number> {
  const recent = wholeNumber(o.recent, '--recent')
  if (recent !== undefined && recent > 100) throw new AppError('usage', '--recent must be at most 100')
  const client = await ctx.client()
  const u = await client.keys.usage({ keyId: o.keyId, recent })
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, u)
    return 0
  }
  await printRecord(ctx.io, ctx.printer, {
    total_requests: u.total_requests,
    last_24h_requests: u.last_24h_requests,
    avg_response_time_ms: u.avg_response_time_ms,
    last_used_at: u.last_used_at ?? '',
  })
  const endpoints = Object.entries(u.endpoints).sort((a, b) => b[1] - a[1])
  if (endpoints.length) {
    await printList(ctx.io, ctx.printer, endpoints, [
      { header: 'endpoint', value: (e) => e[0] },
      { header: 'requests', value: (e) => e[1], align: 'right' },
    ])
  }
  const codes = Object.entries(u.status_codes)
  if (codes.length) {
    await printList(ctx.io, ctx.printer, codes, [
      { header: 'status', value: (e) => e[0] },
      { header: 'requests', value: (e) => e[1], align: 'right' },
    ])
  }
  if (u.recent_requests.length) {
    await printList(ctx.io, ctx.printer, u.recent_requests, [
      { header: 'time', value: (r) => r.created_at },
      { header: 'method', value: (r) => r.method },
      { header: 'endpoint', value: (r) => r.endpoint },
      { header: 'status', value: (r) => r.status_code, align: 'right' },
      { header: 'ms', value: (r) => r.response_time_ms, align: 'right' },
    ])
  }
  return 0
}

interface CreateOptions {
  name?: string
  scopes?: string
  description?: string
  expiresAt?: string
  expiresIn?: string
  rateLimitPerMinute?: string
  rateLimitPerDay?: string
  saveProfile?: string
  outputFile?: string
  overwrite?: boolean
}

async function runCreate(ctx: Context, o: CreateOptions): Promise<number> {
  if (o.expiresAt && o.expiresIn) throw new AppError('usage', 'give --expires-at or --expires-in, not both')
  if (o.saveProfile && o.outputFile) throw new AppError('usage', 'give --save-profile or --output-file, not both')
  const name = await valueOrPrompt(ctx, o.name, '--name', 'a name for the key', () =>
    promptText(ctx, 'Key name', { validate: (v) => (v.trim() ? true : 'required') }),
  )
  let scopes: string[]
  if (o.scopes)
    scopes = o.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  else if (ctx.canPrompt())
    scopes = await promptCheckbox(
      ctx,
      'Scopes',
      API_KEY_SCOPES.map((s) => ({ name: s, value: s, checked: s === 'read' })),
    )
  else throw new AppError('usage', 'scopes are required: give --scopes read,write,transactions')
  const bad = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s))
  if (bad.length) throw new AppError('usage', `--scopes: unknown scope ${bad.join(', ')} (use ${API_KEY_SCOPES.join(', ')})`)
  const expiresAt = o.expiresIn ? new Date(ctx.io.now().getTime() + parseDuration(o.expiresIn, '--expires-in')).toISOString() : o.expiresAt
  const body: CreateApiKeyRequest = {
    name,
    scopes: scopes as CreateApiKeyRequest['scopes'],
    description: o.description,
    expires_at: expiresAt,
    rate_limit_per_minute: wholeNumber(o.rateLimitPerMinute, '--rate-limit-per-minute'),
    rate_limit_per_day: wholeNumber(o.rateLimitPerDay, '--rate-limit-per-day'),
  }
  const file = claimKeyDestination(ctx, o)
  let created: CreatedApiKey
  try {
    const client = await ctx.client()
    created = await client.keys.create(body)
  } catch (err) {
    if (file) file.discard()
    throw err
  }
  await deliverKey(ctx, o, file, created, created)
  return 0
}

interface KeyDestination {
  saveProfile?: string
  outputFile?: string
  overwrite?: boolean
}

/** Check --save-profile and claim --output-file before the key exists: a key whose only copy could not be written is lost. */
function claimKeyDestination(ctx: Context, o: KeyDestination): OutputFile | undefined {
  if (o.saveProfile && o.outputFile) throw new AppError('usage', 'give --save-profile or --output-file, not both')
  if (o.saveProfile !== undefined && !validProfileName(o.saveProfile)) {
    throw new AppError('usage', `--save-profile: "${o.saveProfile}" is not a valid profile name (letters, digits, . _ -)`)
  }
  if (o.saveProfile !== undefined) {
    // A key belongs to this target: never attach it to a profile that points elsewhere.
    const existing = ctx.profiles().get(o.saveProfile)
    const t = ctx.target()
    const here = t.kind === 'remote' ? t.baseUrl : 'embedded'
    if (existing && existing.target !== here) {
      throw new AppError(
        'usage',
        `--save-profile: profile "${o.saveProfile}" points at ${existing.target}, not at this target: choose another name`,
      )
    }
  }
  return o.outputFile === undefined
    ? undefined
    : OutputFile.create(o.outputFile, { flag: '--output-file', secret: true, overwrite: o.overwrite })
}

/** Put a new key where the user asked: a profile, a 0600 file, or stdout (shown this once). `output` is what --json prints. */
async function deliverKey(
  ctx: Context,
  o: KeyDestination,
  file: OutputFile | undefined,
  created: CreatedApiKey,
  output: object,
): Promise<void> {
  const { key, ...record } = created
  if (o.saveProfile) {
    const t = ctx.target()
    // A profile whose secrets were put in the file (--insecure-storage) keeps them there.
    const old = ctx.profiles().get(o.saveProfile)
    const where = ctx.secrets().save(
      o.saveProfile,
      {
        target: t.kind === 'remote' ? t.baseUrl : 'embedded',
        ...(t.kind === 'embedded' ? { database: ctx.env.FINCTL_DATABASE ?? ctx.profile()?.database } : {}),
        api_key: key,
      },
      { insecure: Boolean(old && (old.api_key || old.access_token) && !old.keyring) },
    )
    await printRecord(ctx.io, ctx.printer, record)
    note(
      ctx.io,
      ctx.printer,
      `The new key is saved in profile "${o.saveProfile}", ${storageWords(where)}; use it with --profile ${o.saveProfile}`,
    )
    return
  }
  if (file) {
    file.write(`${key}\n`)
    file.commit()
    await printRecord(ctx.io, ctx.printer, record)
    note(ctx.io, ctx.printer, `The new key is in ${o.outputFile} (mode 0600)`)
    return
  }
  if (ctx.printer.format === 'table') {
    await printRecord(ctx.io, ctx.printer, record)
    ctx.io.stdout.write(`${key}\n`)
  } else await printRecord(ctx.io, ctx.printer, output)
  warn(ctx.io, 'this is the only time the full key is shown: store it now (it is kept only as a hash)', ctx.printer.color)
}

async function runRoll(ctx: Context, o: KeyDestination & { grace: string }, [id]: string[]): Promise<number> {
  const graceMs = o.grace.trim() === '0' ? 0 : parseDuration(o.grace, '--grace')
  if (graceMs > 7 * 24 * 3_600_000) throw new AppError('usage', '--grace must be at most 7d')
  if (graceMs % 1000 !== 0) throw new AppError('usage', '--grace must be whole seconds')
  const file = claimKeyDestination(ctx, o)
  let rolled: { key: CreatedApiKey; previous: ApiKey }
  try {
    const client = await ctx.client()
    rolled = await client.keys.roll(await keyId(client, id), { grace_seconds: graceMs / 1000 })
  } catch (err) {
    if (file) file.discard()
    throw err
  }
  await deliverKey(ctx, o, file, rolled.key, rolled)
  const old = rolled.previous
  if (old.revoked_at) note(ctx.io, ctx.printer, `the old key ${old.key_prefix}… is revoked (grace 0)`)
  else
    note(
      ctx.io,
      ctx.printer,
      `the old key ${old.key_prefix}… keeps working until ${old.grace_ends_at}, then it is revoked: roll out the new key before then`,
    )
  return 0
}

/** The full id of the key ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
function keyId(client: Client, id: string): Promise<string> {
  return resolveListedId(
    'key',
    id,
    () => client.keys.list(),
    (k) => `${k.id}  ${k.name}  ${k.key_prefix}…`,
  )
}

async function runRevoke(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<number> {
  await confirmOrYes(ctx, o.yes, `Revoke API key ${id}? Requests made with it will fail`)
  const client = await ctx.client()
  const key = await client.keys.revoke(await keyId(client, id))
  await printRecord(ctx.io, ctx.printer, key)
  note(ctx.io, ctx.printer, `revoked key ${key.key_prefix}… at ${key.revoked_at}`)
  return 0
}
