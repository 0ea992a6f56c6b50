/** Every command group of docs/cli.md (Commands) that exists so far, registered on the program. */
import type { Command } from 'commander'
import type { Runner } from '../src/cli/runner.js'
import { registerAccounts } from './accounts/index.js'
import { registerApi } from './api.js'
import { registerClose } from './close/index.js'
import { registerCompletion } from './completion.js'
import { registerDoctor } from './doctor.js'
import { registerEvents } from './events/index.js'
import { registerExport } from './export.js'
import { registerHelpTopics } from './help-topics.js'
import { registerAuth } from './auth/index.js'
import { registerCompany } from './company/index.js'
import { registerInit } from './init.js'
import { registerKeys } from './keys/index.js'
import { registerListen } from './listen.js'
import { registerLogs } from './logs/index.js'
import { registerModel } from './model/index.js'
import { registerProfile } from './profile/index.js'
import { registerRates } from './rates/index.js'
import { registerReports } from './reports/index.js'
import { registerRules } from './rules/index.js'
import { registerSeed } from './seed.js'
import { registerServe } from './serve.js'
import { registerStatements } from './statements/index.js'
import { registerTx } from './tx/index.js'
import { registerVerify } from './verify.js'
import { registerWebhooks } from './webhooks/index.js'

export function registerAll(program: Command, run: Runner): void {
  registerInit(program, run)
  registerAuth(program, run)
  registerProfile(program, run)
  registerKeys(program, run)
  registerAccounts(program, run)
  registerTx(program, run)
  registerStatements(program, run)
  registerCompany(program, run)
  registerReports(program, run)
  registerRates(program, run)
  registerRules(program, run)
  registerExport(program, run)
  registerClose(program, run)
  registerEvents(program, run)
  registerWebhooks(program, run)
  registerVerify(program, run)
  registerModel(program, run)
  registerSeed(program, run)
  registerServe(program, run)
  registerApi(program, run)
  registerLogs(program, run)
  registerListen(program, run)
  registerDoctor(program, run)
  registerCompletion(program, run)
  registerHelpTopics(program, run)
}
