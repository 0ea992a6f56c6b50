/** finctl tx list | get | update | delete | bulk-update | bulk-delete | create | import | review */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerBulkDelete } from './bulk-delete.js'
import { registerBulkUpdate } from './bulk-update.js'
import { registerCreate } from './create.js'
import { registerDelete } from './delete.js'
import { registerGet } from './get.js'
import { registerImport } from './import.js'
import { registerList } from './list.js'
import { registerReview } from './review.js'
import { registerUpdate } from './update.js'

export function registerTx(program: Command, run: Runner): void {
  // `transactions` as gh's `pr`/`pull-request`: the long word works as well as the short one.
  const tx = program.command('tx').alias('transactions').description('transactions')
  registerList(tx, run)
  registerGet(tx, run)
  registerUpdate(tx, run)
  registerDelete(tx, run)
  registerBulkUpdate(tx, run)
  registerBulkDelete(tx, run)
  registerCreate(tx, run)
  registerImport(tx, run)
  registerReview(tx, run)
}
