/** finctl keys create [--name N --scopes S ...] [--save-profile P | --output-file F]: a new API key, shown once. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { parseDuration } from '../../src/cli/format.js'
import { promptCheckbox, promptText, valueOrPrompt } from '../../src/cli/prompts.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import type { CreateApiKeyRequest, CreatedApiKey } from '../../src/domain/api-keys/schemas.js'
import type { ProposedKey } from '../../src/domain/approvals/schemas.js'
import type { Outcome } from '../../src/client/approvals.js'
import { note } from '../../src/cli/output.js'
import { AppError } from '../../src/kernel/errors.js'
import { API_KEY_SCOPES } from '../../src/kernel/vocabulary.js'
import { type KeyDestination, type KeyHost, claimKeyDestination, deliverKey } from './shared.js'

export interface CreateOptions extends KeyDestination {
  name?: string
  scopes?: string
  description?: string
  expiresAt?: string
  expiresIn?: string
  rateLimitPerMinute?: string
  rateLimitPerDay?: string
  agent?: boolean
}

export function registerCreate(keys: Command, run: Runner, runF: RunVerb<CreateOptions, KeyHost> = runCreate): void {
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
    .option(
      '--agent',
      "an AI agent's key: every write made with it is a proposal a person approves, and it never approves (docs/agents.md)",
    )
    .option('--save-profile <name>', 'store the new key in this profile instead of printing it')
    .option('--output-file <path>', 'write the new key to this file (mode 0600) instead of printing it')
    .option('--overwrite', 'let --output-file replace an existing file')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl keys create --name ci --scopes read,transactions --expires-in 90d\n  finctl keys create --name import --scopes write --save-profile importer\n  finctl keys create --agent --name claude --scopes read,write,transactions --save-profile agent\n',
    )
    .action(run(runF))
}

export async function runCreate(host: KeyHost, o: CreateOptions): Promise<number> {
  if (o.expiresAt && o.expiresIn) throw new AppError('usage', 'give --expires-at or --expires-in, not both')
  if (o.saveProfile && o.outputFile) throw new AppError('usage', 'give --save-profile or --output-file, not both')
  const name = await valueOrPrompt(host, o.name, '--name', 'a name for the key', () =>
    promptText(host, 'Key name', { validate: (v) => (v.trim() ? true : 'required') }),
  )
  let scopes: string[]
  if (o.scopes)
    scopes = o.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  else if (host.canPrompt())
    scopes = await promptCheckbox(
      host,
      'Scopes',
      API_KEY_SCOPES.map((s) => ({ name: s, value: s, checked: s === 'read' })),
    )
  else throw new AppError('usage', 'scopes are required: give --scopes read,write,transactions')
  const bad = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s))
  if (bad.length) throw new AppError('usage', `--scopes: unknown scope ${bad.join(', ')} (use ${API_KEY_SCOPES.join(', ')})`)
  const expiresAt = o.expiresIn ? new Date(host.io.now().getTime() + parseDuration(o.expiresIn, '--expires-in')).toISOString() : o.expiresAt
  const body: CreateApiKeyRequest = {
    name,
    scopes: scopes as CreateApiKeyRequest['scopes'],
    description: o.description,
    expires_at: expiresAt,
    rate_limit_per_minute: wholeNumber(o.rateLimitPerMinute, '--rate-limit-per-minute'),
    rate_limit_per_day: wholeNumber(o.rateLimitPerDay, '--rate-limit-per-day'),
    ...(o.agent ? { agent: true } : {}),
  }
  const file = claimKeyDestination(host, o)
  let created: Outcome<CreatedApiKey, ProposedKey>
  try {
    const client = await host.client()
    created = await client.keys.requestCreate(body)
  } catch (err) {
    if (file) file.discard()
    throw err
  }
  if (created.done) {
    await deliverKey(host, o, file, created.done)
    return EXIT.ok
  }
  // Under a key-write policy: the key is shown (or saved) now, to the proposer alone; it works once approved.
  await deliverKey(host, o, file, created.proposal)
  note(host.io, host.printer, `the key works once another person approves it: finctl approvals show ${created.proposal.id}`)
  // Loaded with a proposal: the group's other verbs do not need the approvals' output.
  const { printProposed } = await import('../approvals/shared.js')
  return printProposed(host, created.proposal, false)
}
