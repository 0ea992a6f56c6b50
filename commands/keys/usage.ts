/** finctl keys usage [--key-id ID] [--recent N]: the usage statistics of a key. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { keyId } from './shared.js'

export interface UsageOptions {
  keyId?: string
  recent: string
}

export function registerUsage(keys: Command, run: Runner, runF: RunVerb<UsageOptions> = runUsage): void {
  keys
    .command('usage')
    .description('usage statistics of the key in use, or of --key-id')
    .option('--key-id <id>', 'another key of the company (needs `finctl login`)')
    .option('--recent <n>', 'how many recent requests to list (1-100)', '20')
    .addHelpText('after', '\nExamples:\n  finctl keys usage\n  finctl keys usage --key-id $KEY_ID --recent 50\n')
    .action(run(runF))
}

export async function runUsage(host: VerbHost, o: UsageOptions): Promise<number> {
  const recent = wholeNumber(o.recent, '--recent')
  if (recent !== undefined && recent > 100) throw new AppError('usage', '--recent must be at most 100')
  const client = await host.client()
  const u = await client.keys.usage({ keyId: o.keyId === undefined ? undefined : await keyId(client, o.keyId, '--key-id'), recent })
  const { io, printer } = host
  if (printer.format !== 'table') {
    await printRecord(io, printer, u)
    return EXIT.ok
  }
  await printRecord(io, printer, {
    total_requests: u.total_requests,
    last_24h_requests: u.last_24h_requests,
    avg_response_time_ms: u.avg_response_time_ms,
    last_used_at: u.last_used_at ?? '',
  })
  const endpoints = Object.entries(u.endpoints).sort((a, b) => b[1] - a[1])
  if (endpoints.length) {
    await printList(io, printer, endpoints, [
      { header: 'endpoint', value: (e) => e[0] },
      { header: 'requests', value: (e) => e[1], align: 'right' },
    ])
  }
  const codes = Object.entries(u.status_codes)
  if (codes.length) {
    await printList(io, printer, codes, [
      { header: 'status', value: (e) => e[0] },
      { header: 'requests', value: (e) => e[1], align: 'right' },
    ])
  }
  if (u.recent_requests.length) {
    await printList(io, printer, u.recent_requests, [
      { header: 'time', value: (r) => r.created_at },
      { header: 'method', value: (r) => r.method },
      { header: 'endpoint', value: (r) => r.endpoint },
      { header: 'status', value: (r) => r.status_code, align: 'right' },
      { header: 'ms', value: (r) => r.response_time_ms, align: 'right' },
    ])
  }
  return EXIT.ok
}
