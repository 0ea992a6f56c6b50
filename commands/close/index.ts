/** finctl close status [--month M] | close MONTH [--force --reason T] [--export F,...] | close reopen MONTH --reason T | close history | close pack MONTH -o FILE (docs/closing.md) */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerHistory } from './history.js'
import { registerPack } from './pack.js'
import { registerCloseMonth } from './month.js'
import { registerReopen } from './reopen.js'
import { registerStatus } from './status.js'

export function registerClose(program: Command, run: Runner): void {
  const close = registerCloseMonth(program, run)
  registerStatus(close, run)
  registerReopen(close, run)
  registerHistory(close, run)
  registerPack(close, run)
}
