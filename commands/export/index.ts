/** finctl export --format F ... | export check FILE | export map set|show|suggest|clear (docs/exporting.md) */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCheck } from './check.js'
import { registerMapClear } from './map-clear.js'
import { registerMapSet } from './map-set.js'
import { registerMapShow } from './map-show.js'
import { registerMapSuggest } from './map-suggest.js'
import { registerExport } from './write.js'

export function registerExportGroup(program: Command, run: Runner): void {
  const exp = registerExport(program, run)
  registerCheck(exp, run)
  const map = exp
    .command('map')
    .description("the company's chart of accounts for datev, sie4 and saft-no: the account number of each bank account and category")
  registerMapSet(map, run)
  registerMapShow(map, run)
  registerMapSuggest(map, run)
  registerMapClear(map, run)
}
