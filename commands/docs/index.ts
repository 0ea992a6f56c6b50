/** finctl docs add | list | show | get | link | unlink | suggest: receipts, invoices and contracts, linked to transactions. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerAdd } from './add.js'
import { registerGet } from './get.js'
import { registerLink } from './link.js'
import { registerList } from './list.js'
import { registerShow } from './show.js'
import { registerSuggest } from './suggest.js'
import { registerUnlink } from './unlink.js'

export function registerDocs(program: Command, run: Runner): void {
  const docs = program
    .command('docs')
    .alias('documents')
    .description('documents: receipts, invoices and contracts, stored by content and linked to transactions')
  registerAdd(docs, run)
  registerList(docs, run)
  registerShow(docs, run)
  registerGet(docs, run)
  registerLink(docs, run)
  registerUnlink(docs, run)
  registerSuggest(docs, run)
}
