/** finctl keys roll ID [--grace D] [--save-profile P | --output-file F]: a successor key, the old one working through the grace. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { parseDuration } from '../../src/cli/format.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import type { ApiKey, CreatedApiKey } from '../../src/domain/api-keys/schemas.js'
import type { ProposedKey } from '../../src/domain/approvals/schemas.js'
import type { Outcome } from '../../src/client/approvals.js'
import { AppError } from '../../src/kernel/errors.js'
import { type KeyDestination, type KeyHost, claimKeyDestination, deliverKey, keyId } from './shared.js'

export interface RollOptions extends KeyDestination {
  grace: string
}

export function registerRoll(keys: Command, run: Runner, runF: RunVerb<RollOptions, KeyHost> = runRoll): void {
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
    .addHelpText(
      'after',
      '\nUnder a key-write approval policy, rolling a key with a write scope is a proposal (exit 15): the new key\nis shown now and works once approved; the old one is untouched until then.\n\nExamples:\n  finctl keys roll $KEY_ID --grace 2h\n  finctl keys roll $KEY_ID --save-profile importer\n',
    )
    .action(run(runF))
}

export async function runRoll(host: KeyHost, o: RollOptions, [id]: string[]): Promise<number> {
  const graceMs = o.grace.trim() === '0' ? 0 : parseDuration(o.grace, '--grace')
  if (graceMs > 7 * 24 * 3_600_000) throw new AppError('usage', '--grace must be at most 7d')
  if (graceMs % 1000 !== 0) throw new AppError('usage', '--grace must be whole seconds')
  const file = claimKeyDestination(host, o)
  let sent: Outcome<{ key: CreatedApiKey; previous: ApiKey }, ProposedKey>
  try {
    const client = await host.client()
    sent = await client.keys.requestRoll(await keyId(client, id), { grace_seconds: graceMs / 1000 })
  } catch (err) {
    if (file) file.discard()
    throw err
  }
  if (sent.proposal) {
    // Under a key-write policy: the successor's key is shown (or saved) now, to the proposer alone.
    await deliverKey(host, o, file, sent.proposal)
    note(
      host.io,
      host.printer,
      `the new key works once another person approves the roll, and the old one keeps working until then: finctl approvals show ${sent.proposal.id}`,
    )
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, sent.proposal, false)
  }
  const rolled = sent.done
  await deliverKey(host, o, file, rolled.key, (key) => ({ key, previous: rolled.previous }))
  const old = rolled.previous
  if (old.revoked_at) note(host.io, host.printer, `the old key ${old.key_prefix}… is revoked (grace 0)`)
  else
    note(
      host.io,
      host.printer,
      `the old key ${old.key_prefix}… keeps working until ${old.grace_ends_at}, then it is revoked: roll out the new key before then`,
    )
  return EXIT.ok
}
