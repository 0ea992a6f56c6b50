/** What the verbs of `finctl model` share: the model's status as a record and its calibration. */
import type { Client } from '../../src/client/client.js'
import { printList, printRecord } from '../../src/cli/output.js'
import type { VerbHost } from '../../src/cli/runner.js'

export type Status = Awaited<ReturnType<Client['categorization']['model']>>

export async function printStatus(ctx: VerbHost, s: Status): Promise<void> {
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, s)
    return
  }
  const { calibration, ...rest } = s
  await printRecord(ctx.io, ctx.printer, rest)
  if (calibration.length) {
    ctx.io.stdout.write('\ncalibration (held-out, at training time):\n')
    await printList(ctx.io, ctx.printer, calibration, [
      { header: 'raw score', value: (b) => `${b.from.toFixed(2)}–${b.to.toFixed(2)}` },
      { header: 'predictions', value: (b) => b.count, align: 'right' },
      { header: 'right', value: (b) => `${(b.accuracy * 100).toFixed(1)}%`, align: 'right' },
    ])
  }
}
