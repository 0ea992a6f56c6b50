/** finctl model evaluate [--size N] [--seed N] [--threshold S]: the model on a generated data set, offline. */
import type { Command } from 'commander'
import { unitScore, wholeNumber } from '../../src/cli/flags.js'
import { printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export interface EvaluateOptions {
  size?: string
  seed?: string
  threshold?: string
}

export function registerEvaluate(model: Command, run: Runner, runF: RunVerb<EvaluateOptions> = runEvaluate): void {
  model
    .command('evaluate')
    .description('accuracy, coverage and calibration on a held-out split of a generated data set (offline)')
    .option('--size <n>', 'transactions to generate (default 20000)')
    .option('--seed <n>', 'seed of the generator and the split (default 1)')
    .option('--threshold <score>', 'the threshold to report coverage and precision at (default 0.9)')
    .addHelpText('after', '\nExample:\n  finctl model evaluate --size 50000 --seed 7\n')
    .action(run(runF))
}

/** Offline: `host.client` is never called. */
export async function runEvaluate(ctx: VerbHost, o: EvaluateOptions): Promise<number> {
  const size = wholeNumber(o.size, '--size', { min: 100 })
  const seed = wholeNumber(o.seed, '--seed', { min: 0 })
  const threshold = unitScore(o.threshold, '--threshold')
  const { evaluate } = await import('../../src/domain/categorization/evaluate.js')
  const r = evaluate({ size, seed, threshold })
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, r)
    return 0
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`
  const { calibration, ...rest } = r
  await printRecord(ctx.io, ctx.printer, {
    ...rest,
    accuracy: pct(r.accuracy),
    coverage: pct(r.coverage),
    precision_at_threshold: pct(r.precision_at_threshold),
    expected_calibration_error: r.expected_calibration_error.toFixed(4),
  })
  ctx.io.stdout.write('\ncalibration on the held-out rows:\n')
  await printList(ctx.io, ctx.printer, calibration, [
    { header: 'score', value: (b) => `${b.from.toFixed(2)}–${b.to.toFixed(2)}` },
    { header: 'predictions', value: (b) => b.count, align: 'right' },
    { header: 'mean score', value: (b) => b.mean_score.toFixed(3), align: 'right' },
    { header: 'right', value: (b) => pct(b.accuracy), align: 'right' },
  ])
  return 0
}
