/** finctl imports remap BATCH --map field=Column ...: read a pending batch's file again with another mapping, replacing its pending rows. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { collect } from '../../src/cli/flags.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { shortId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import type { RemapRequest } from '../../src/domain/imports/review-schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { batchId } from './shared.js'

export interface RemapOptions {
  map?: string[]
  /** true: --invert-sign, false: --no-invert-sign. */
  invertSign?: boolean
  dateFormat?: string
}

export function registerRemap(im: Command, run: Runner, runF: RunVerb<RemapOptions> = runRemap): void {
  im.command('remap')
    .argument('<batch>', 'the pending batch id (or 6+ of its hex digits)')
    .description("read a pending batch's file again with another mapping (tx import --review): its pending rows are replaced")
    .option(
      '--map <field=Column>',
      "which column holds a field, as tx import's --map (repeatable; replaces the batch's columns of that field)",
      collect,
    )
    .option('--invert-sign', 'flip every amount')
    .option('--no-invert-sign', 'no longer flip the amounts')
    .option('--date-format <format>', "the dates' layout, as tx import's --date-format")
    .addHelpText(
      'after',
      '\nExample:\n  finctl imports remap 1a2b3c4d --map category=Memo\n  finctl imports remap 1a2b3c4d --invert-sign\n' +
        '\nThe file is the one the review sent (kept while the batch is pending, up to 20 MiB). Rows the new mapping\n' +
        'refuses are named by line. Exit codes: 0 remapped; 8 some rows rejected; 6 not pending, or no file kept.\n',
    )
    .action(run(runF))
}

export async function runRemap(host: VerbHost, o: RemapOptions, [id]: string[]): Promise<number> {
  const body: RemapRequest = {}
  if (o.map?.length) {
    for (const m of o.map) if (!/^[a-z_]+=.+$/.test(m)) throw new AppError('usage', `--map takes field=Column (got "${m}")`)
    body.map = o.map
  }
  if (o.invertSign !== undefined) body.invert_sign = o.invertSign
  if (o.dateFormat !== undefined) body.date_format = o.dateFormat
  if (!Object.keys(body).length) throw new AppError('usage', 'give what to change: --map field=Column, --invert-sign or --date-format')
  const client = await host.client()
  const r = await client.imports.remap(await batchId(client, id), body)
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, r)
    return r.remap.rejected > 0 ? EXIT.partial : EXIT.ok
  }
  await printRecord(host.io, host.printer, {
    id: r.id,
    file_name: r.file_name,
    state: r.state,
    read: r.remap.read,
    pending: r.remap.staged,
    'already there': r.remap.existing,
    rejected: r.remap.rejected,
  })
  for (const x of r.rejects.slice(0, 20)) note(host.io, host.printer, `line ${x.line} rejected: ${printableLine(x.reason)}`)
  if (r.rejects.length > 20) note(host.io, host.printer, `${r.remap.rejected - 20} more rejected: finctl imports show ${shortId(r.id)}`)
  return r.remap.rejected > 0 ? EXIT.partial : EXIT.ok
}
