/** finctl model status | set | retrain | evaluate: the learned categorization model. */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { Context } from '../src/cli/context.js'
import { note, printList, printRecord } from '../src/cli/output.js'
import { unitScore, wholeNumber } from '../src/cli/flags.js'
import type { Runner } from '../src/cli/runner.js'

export function registerModel(program: Command, run: Runner): void {
  const model = program
    .command('model')
    .description('the categorization model that learns from your categorized transactions')
    .addHelpText(
      'after',
      "\nImported and uploaded rows without a category get the model's prediction when its calibrated\nconfidence reaches the threshold (rules win over the model); the rest wait in `finctl tx review`.\n",
    )
  model
    .command('status')
    .alias('show')
    .description('settings, training size and calibration')
    .addHelpText('after', '\nExample:\n  finctl model status --json\n')
    .action(run(runStatus))
  model
    .command('set')
    .description('change the threshold or turn automatic categorization on or off')
    .option('--threshold <score>', 'predictions scored at or above it fill the category (0..1; default 0.9)')
    .option('--auto <on|off>', 'categorize imported and uploaded rows automatically')
    .addHelpText('after', '\nExamples:\n  finctl model set --threshold 0.95\n  finctl model set --auto off\n')
    .action(run(runSet))
  model
    .command('retrain')
    .description('retrain from the labelled transactions now and refit the calibration')
    .addHelpText('after', '\nExample:\n  finctl model retrain\n')
    .action(run(runRetrain))
  model
    .command('evaluate')
    .description('accuracy, coverage and calibration on a held-out split of a generated data set (offline)')
    .option('--size <n>', 'transactions to generate (default 20000)')
    .option('--seed <n>', 'seed of the generator and the split (default 1)')
    .option('--threshold <score>', 'the threshold to report coverage and precision at (default 0.9)')
    .addHelpText('after', '\nExample:\n  finctl model evaluate --size 50000 --seed 7\n')
    .action(run(runEvaluate))
}

type Status = Awaited<ReturnType<Awaited<ReturnType<Context['client']>>['categorization']['model']>>

async function printStatus(ctx: Context, s: Status): Promise<void> {
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

async function runStatus(ctx: Context): Promise<number> {
  const client = await ctx.client()
  await printStatus(ctx, await client.categorization.model())
  return 0
}

async function runRetrain(ctx: Context): Promise<number> {
  const client = await ctx.client()
  const s = await client.categorization.retrain()
  await printStatus(ctx, s)
  note(ctx.io, ctx.printer, `retrained on ${s.trained_on} labelled transactions (${s.labels} categories)`)
  return 0
}

async function runSet(ctx: Context, o: { threshold?: string; auto?: string }): Promise<number> {
  if (o.threshold === undefined && o.auto === undefined) throw new AppError('usage', 'nothing to change: give --threshold or --auto')
  let auto: boolean | undefined
  if (o.auto !== undefined) {
    if (!/^(on|off|true|false)$/i.test(o.auto)) throw new AppError('usage', '--auto must be on or off')
    auto = /^(on|true)$/i.test(o.auto)
  }
  const client = await ctx.client()
  const s = await client.categorization.settings({ threshold: unitScore(o.threshold, '--threshold'), auto_categorize: auto })
  await printRecord(ctx.io, ctx.printer, s)
  return 0
}

async function runEvaluate(ctx: Context, o: { size?: string; seed?: string; threshold?: string }): Promise<number> {
  const size = wholeNumber(o.size, '--size', { min: 100 })
  const seed = wholeNumber(o.seed, '--seed', { min: 0 })
  const threshold = unitScore(o.threshold, '--threshold')
  const { evaluate } = await import('../src/domain/categorization/evaluate.js')
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
