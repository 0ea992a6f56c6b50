/** finctl webhooks create | list | get | update | delete | test | deliver: where the company's events are sent (docs/events.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCreate } from './create.js'
import { registerDelete } from './delete.js'
import { registerDeliver } from './deliver.js'
import { registerGet } from './get.js'
import { registerList } from './list.js'
import { registerTest } from './test.js'
import { registerUpdate } from './update.js'

export function registerWebhooks(program: Command, run: Runner): void {
  const w = program.command('webhooks').description("endpoints that receive the company's events, signed (docs/events.md)")
  registerCreate(w, run)
  registerList(w, run)
  registerGet(w, run)
  registerUpdate(w, run)
  registerDelete(w, run)
  registerTest(w, run)
  registerDeliver(w, run)
}
