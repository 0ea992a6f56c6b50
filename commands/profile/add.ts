/** finctl profile add NAME (--base-url URL | --database PATH) [--api-key-stdin] [--protected] [--use] */
import type { Command } from 'commander'
import { storageWords } from '../../src/cli/credentials.js'
import { readStdinLine } from '../../src/cli/io.js'
import { note } from '../../src/cli/output.js'
import { validProfileName } from '../../src/cli/profiles.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import type { ProfileHost } from './shared.js'

export interface AddOptions {
  baseUrl?: string
  database?: string
  apiKeyStdin?: boolean
  protected?: boolean
  use?: boolean
  insecureStorage?: boolean
}

export function registerAdd(profile: Command, run: Runner, runF: RunVerb<AddOptions, ProfileHost> = runAdd): void {
  profile
    .command('add')
    .argument('<name>')
    .description('add a profile for a remote service (or an embedded database)')
    .option('--base-url <url>', 'URL of a finctl service')
    .option('--database <path|url>', 'embedded: SQLite file or postgres:// URL')
    .option('--api-key-stdin', 'read an API key for this profile from stdin')
    .option('--insecure-storage', 'keep the secrets in profiles.json (mode 0600) even when the OS keyring is available')
    .option('--protected', 'mark as protected (writes ask to confirm)')
    .option('--use', 'make it the current profile')
    .addHelpText('after', '\nExample:\n  finctl profile add prod --base-url https://finctl.example.com && finctl --profile prod login\n')
    .action(run(runF))
}

export async function runAdd(host: ProfileHost, o: AddOptions, [name]: string[]): Promise<number> {
  if (!validProfileName(name)) throw new AppError('usage', `"${name}" is not a valid profile name (letters, digits, . _ -)`)
  // `--base-url` is also a global flag; commander gives it to whichever level it was written at.
  const baseUrl = o.baseUrl ?? host.globals.baseUrl
  if (!baseUrl && !o.database) throw new AppError('usage', 'give --base-url URL (a remote service) or --database PATH (embedded)')
  if (baseUrl) {
    let u: URL
    try {
      u = new URL(baseUrl)
    } catch {
      throw new AppError('usage', `--base-url: "${baseUrl}" is not a URL`)
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError('usage', '--base-url must start with http:// or https://')
  }
  if (host.profiles().get(name)) throw new AppError('usage', `profile "${name}" already exists: remove it first`)
  const apiKey = o.apiKeyStdin ? await readStdinLine(host.io) : undefined
  const where = host.secrets().save(
    name,
    {
      target: baseUrl ? baseUrl.replace(/\/+$/, '') : 'embedded',
      database: baseUrl ? undefined : o.database,
      api_key: apiKey || undefined,
      protected: o.protected || undefined,
    },
    { replace: true, insecure: o.insecureStorage },
  )
  if (o.use || !host.profiles().current) host.profiles().setCurrent(name)
  note(
    host.io,
    host.printer,
    `added profile "${name}"${apiKey ? ` with an API key ${storageWords(where)}` : ''}${o.use ? ' and made it current' : ''}`,
  )
  return 0
}
