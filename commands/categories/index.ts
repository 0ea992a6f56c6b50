/** finctl categories [list]: a noun group like the others, and the bare `finctl categories` for the same. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerList } from './list.js'

export function registerCategories(program: Command, run: Runner): void {
  const categories = program.command('categories').description('categories in use, with the accounting and cash-flow categories')
  registerList(categories, run)
}
