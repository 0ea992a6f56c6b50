/** finctl company | categories [list] */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCategories } from '../categories/index.js'
import { registerShow } from './show.js'

export function registerCompany(program: Command, run: Runner): void {
  registerShow(program, run)
  registerCategories(program, run)
}
