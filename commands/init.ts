/** finctl init: a local embedded database with a company, its owner, a first API key and a profile. */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { redactPasswords } from '../src/kernel/redact.js'
import { CURRENCY_CODES, isCurrency } from '../src/kernel/currencies.js'
import { generatePassword } from '../src/domain/api-keys/secrets.js'
import type { Context } from '../src/cli/context.js'
import { readStdinLine } from '../src/cli/io.js'
import { note, printList, printRecord, warn } from '../src/cli/output.js'
import { DEFAULT_PROFILE, defaultDatabase, validProfileName } from '../src/cli/profiles.js'
import { type PromptHost, promptPassword, promptSearch, promptText } from '../src/cli/prompts.js'
import { transactionColumns } from '../src/cli/columns.js'
import { rememberAccounts } from '../src/cli/short-ids.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import { storageWords } from '../src/cli/credentials.js'

export interface InitOptions {
  company?: string
  currency?: string
  email?: string
  passwordStdin?: boolean
  demo?: boolean
  database?: string
  insecureStorage?: boolean
}

/** The host of `init`: it asks, and saves the profile and its secrets. */
export type InitHost = VerbHost & PromptHost & Pick<Context, 'profiles' | 'secrets'>

export function registerInit(program: Command, run: Runner, runF: RunVerb<InitOptions, InitHost> = runInit): void {
  program
    .command('init')
    .description('set up the embedded database: a company, its owner, an API key and the profile "local"')
    .option('--company <name>', 'company name')
    .option('--currency <code>', 'base currency (ISO 4217)')
    .option('--email <email>', "owner's email")
    .option('--password-stdin', "read the owner's password from stdin")
    .option('--database <path|url>', 'SQLite file or postgres:// URL (env FINCTL_DATABASE)')
    .option('--demo', 'also create a bank account and a month of demo transactions')
    .option('--insecure-storage', 'keep the secrets in profiles.json (mode 0600) even when the OS keyring is available')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl init --demo\n  echo "$PW" | finctl init --company Acme --currency EUR --email me@acme.test --password-stdin --no-input\n',
    )
    .action(run(runF))
}

export async function runInit(host: InitHost, o: InitOptions): Promise<number> {
  const profiles = host.profiles()
  const profileName = host.globals.profile ?? host.io.env.FINCTL_PROFILE ?? DEFAULT_PROFILE
  if (!validProfileName(profileName)) throw new AppError('usage', `"${profileName}" is not a valid profile name`)
  if (profiles.get(profileName)) {
    throw new AppError(
      'usage',
      `profile "${profileName}" already exists: give --profile NAME to add another company, or run \`finctl profile remove ${profileName}\` first`,
    )
  }
  const database = o.database ?? host.io.env.FINCTL_DATABASE ?? defaultDatabase(host.io.env)
  const interactive = host.canPrompt()
  const defaults = { company: o.demo ? 'Demo Company' : 'My Company', currency: 'USD', email: 'owner@example.com' }

  const company = o.company ?? (interactive ? await promptText(host, 'Company name', { default: defaults.company }) : defaults.company)
  const currency = (
    o.currency ??
    (interactive
      ? await promptSearch(
          host,
          'Base currency (type to search)',
          CURRENCY_CODES.map((c) => ({ name: c, value: c })),
          defaults.currency,
        )
      : defaults.currency)
  ).toUpperCase()
  if (!isCurrency(currency))
    throw new AppError('usage', `--currency: "${currency}" is not an ISO 4217 currency code (for example USD, EUR, JPY)`)
  const email =
    o.email ??
    (interactive
      ? await promptText(host, "Owner's email", {
          default: defaults.email,
          validate: (v) => (/^[^\s@]+@[^\s@]+$/.test(v) ? true : 'an email address'),
        })
      : defaults.email)

  let password: string
  let generated = false
  if (o.passwordStdin) password = await readStdinLine(host.io)
  else if (interactive) password = await promptPassword(host, "Owner's password", { confirm: true })
  else {
    password = generatePassword()
    generated = true
  }
  if (password.length < 8) throw new AppError('usage', 'the password must be at least 8 characters')

  const { initEmbedded } = await import('../src/cli/setup.js')
  const result = await initEmbedded({ database, company, currency, email, password, demo: Boolean(o.demo) }, host.io.now)

  const where = host.secrets().save(
    profileName,
    {
      target: 'embedded',
      database: o.database ?? host.io.env.FINCTL_DATABASE,
      api_key: result.key.key,
      access_token: result.token.access_token,
      token_expires_at: result.token.expires_at,
      email: result.email,
      company_id: result.company.id,
    },
    { replace: true, insecure: o.insecureStorage },
  )
  profiles.setCurrent(profileName)

  note(host.io, host.printer, `Created company "${result.company.name}" (${result.company.base_currency}) in ${redactPasswords(database)}`)
  note(
    host.io,
    host.printer,
    `Owner ${result.email} is logged in; API key ${result.key.key_prefix}… saved in profile "${profileName}" (${profiles.path}), ${storageWords(where)}`,
  )
  if (generated) {
    // Shown once, on stderr, so that it does not end up in captured data.
    warn(
      host.io,
      `no password was given, so one was generated for ${result.email}: ${password}\n  Keep it: \`finctl login\` needs it when the session expires.`,
    )
  }
  if (result.demo) {
    if (host.printer.format === 'table') {
      note(host.io, host.printer, `Demo data: account "${result.demo.account.name}" with ${result.demo.transactions.length} transactions:`)
      rememberAccounts([result.demo.account])
      await printList(host.io, host.printer, result.demo.transactions, transactionColumns)
    } else {
      await printRecord(host.io, host.printer, {
        company: result.company,
        account: result.demo.account,
        transactions: result.demo.transactions,
      })
    }
  } else if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, { company: result.company })
  }
  note(host.io, host.printer, 'Next: `finctl tx create`, `finctl keys list`, `finctl whoami`')
  return 0
}
