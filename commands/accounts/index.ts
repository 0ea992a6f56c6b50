/** finctl accounts list | get | create | update | delete | transactions: the company's bank accounts. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCreate } from './create.js'
import { registerDelete } from './delete.js'
import { registerGet } from './get.js'
import { registerList } from './list.js'
import { registerTransactions } from './transactions.js'
import { registerUpdate } from './update.js'

export function registerAccounts(program: Command, run: Runner): void {
  const accounts = program.command('accounts').alias('account').description('bank accounts')
  registerList(accounts, run)
  registerGet(accounts, run)
  registerCreate(accounts, run)
  registerUpdate(accounts, run)
  registerDelete(accounts, run)
  registerTransactions(accounts, run)
}
