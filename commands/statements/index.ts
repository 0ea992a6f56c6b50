/** finctl statements upload | list | get | transactions | file */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerFile } from './file.js'
import { registerGet } from './get.js'
import { registerList } from './list.js'
import { registerTransactions } from './transactions.js'
import { registerUpload } from './upload.js'

export function registerStatements(program: Command, run: Runner): void {
  const st = program
    .command('statements')
    .alias('statement')
    .description('bank statements: upload a bank file, see what it imported and reconciled')
  registerUpload(st, run)
  registerList(st, run)
  registerGet(st, run)
  registerTransactions(st, run)
  registerFile(st, run)
}
