/** finctl model status | set | retrain | evaluate: the learned categorization model. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerEvaluate } from './evaluate.js'
import { registerRetrain } from './retrain.js'
import { registerSet } from './set.js'
import { registerStatus } from './status.js'

export function registerModel(program: Command, run: Runner): void {
  const model = program
    .command('model')
    .description('the categorization model that learns from your categorized transactions')
    .addHelpText(
      'after',
      "\nImported and uploaded rows without a category get the model's prediction when its calibrated\nconfidence reaches the threshold (rules win over the model); the rest wait in `finctl tx review`.\n",
    )
  registerStatus(model, run)
  registerSet(model, run)
  registerRetrain(model, run)
  registerEvaluate(model, run)
}
