/** finctl profile list | show | use | add | remove */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { redactPasswords } from '../src/kernel/redact.js'
import type { Context } from '../src/cli/context.js'
import { readStdinLine } from '../src/cli/io.js'
import { mask } from '../src/cli/format.js'
import { note, printList, printRecord } from '../src/cli/output.js'
import { type Profile, validProfileName } from '../src/cli/profiles.js'
import type { Runner } from '../src/cli/runner.js'
import { SECRETS, storageWords } from '../src/cli/credentials.js'

export function registerProfile(program: Command, run: Runner): void {
  const profile = program.command('profile').description('targets and their credentials')
  profile.command('list').description('list profiles').addHelpText('after', '\nExample:\n  finctl profile list\n').action(run(runList))
  profile
    .command('show')
    .argument('[name]', 'profile (default: the current one)')
    .description('show a profile (secrets masked)')
    .addHelpText('after', '\nExample:\n  finctl profile show prod\n')
    .action(run(runShow))
  profile
    .command('use')
    .argument('<name>')
    .description('make a profile the current one')
    .addHelpText('after', '\nExample:\n  finctl profile use prod\n')
    .action(run(runUse))
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
    .action(run(runAdd))
  profile
    .command('remove')
    .argument('<name>')
    .description('remove a profile and its credentials')
    .addHelpText('after', '\nExample:\n  finctl profile remove staging\n')
    .action(run(runRemove))
  profile
    .command('protect')
    .argument('<name>')
    .description('protect a profile: each command that writes through it asks to type its name (or needs --yes)')
    .addHelpText('after', '\nExample:\n  finctl profile protect prod\n')
    .action(run(runProtect(true)))
  profile
    .command('unprotect')
    .argument('<name>')
    .description('stop protecting a profile')
    .addHelpText('after', '\nExample:\n  finctl profile unprotect staging\n')
    .action(run(runProtect(false)))
}

function runProtect(on: boolean) {
  return async (ctx: Context, _o: object, [name]: string[]): Promise<number> => {
    if (!ctx.profiles().get(name)) throw new AppError('not_found', `no profile named "${name}": see \`finctl profile list\``)
    ctx.profiles().update(name, { protected: on || undefined })
    note(
      ctx.io,
      ctx.printer,
      on
        ? `profile "${name}" is protected: writes through it ask to type its name (or need --yes)`
        : `profile "${name}" is no longer protected`,
    )
    return 0
  }
}

/** Where a profile keeps a secret, read from the file alone (the keyring is not opened to list profiles). */
function storage(p: Profile, secret: 'api_key' | 'access_token'): string | null {
  return p[secret] ? 'profiles.json' : p.keyring?.includes(secret) ? 'keyring' : null
}

function describe(name: string, p: Profile, current: boolean) {
  return {
    name,
    current,
    target: p.target,
    database: p.database ? redactPasswords(p.database) : null,
    api_key: p.api_key ? mask(p.api_key) : p.keyring?.includes('api_key') ? 'set' : null,
    access_token: p.access_token || p.keyring?.includes('access_token') ? 'set' : null,
    api_key_storage: storage(p, 'api_key'),
    access_token_storage: storage(p, 'access_token'),
    token_expires_at: p.token_expires_at ?? null,
    email: p.email ?? null,
    protected: Boolean(p.protected),
  }
}

async function runList(ctx: Context): Promise<number> {
  const store = ctx.profiles()
  const current = ctx.profileName()
  const rows = Object.entries(store.list()).map(([n, p]) => describe(n, p, n === current))
  await printList(
    ctx.io,
    ctx.printer,
    rows,
    [
      { header: 'current', value: (r) => (r.current ? '*' : '') },
      { header: 'name', value: (r) => r.name },
      { header: 'target', value: (r) => r.target },
      {
        header: 'credentials',
        value: (r) => [r.api_key ? 'api key' : '', r.access_token ? 'token' : ''].filter(Boolean).join(', ') || 'none',
      },
    ],
    { empty: 'no profiles yet: run `finctl init` or `finctl profile add NAME --base-url URL`' },
  )
  return 0
}

async function runShow(ctx: Context, _o: object, [name]: string[]): Promise<number> {
  const n = name ?? ctx.profileName()
  const p = ctx.profiles().get(n)
  if (!p) throw new AppError('not_found', `no profile named "${n}"`)
  await printRecord(ctx.io, ctx.printer, describe(n, p, n === ctx.profileName()))
  return 0
}

async function runUse(ctx: Context, _o: object, [name]: string[]): Promise<number> {
  if (!ctx.profiles().get(name)) throw new AppError('not_found', `no profile named "${name}": see \`finctl profile list\``)
  ctx.profiles().setCurrent(name)
  note(ctx.io, ctx.printer, `now using profile "${name}"`)
  return 0
}

async function runAdd(
  ctx: Context,
  o: { baseUrl?: string; database?: string; apiKeyStdin?: boolean; protected?: boolean; use?: boolean; insecureStorage?: boolean },
  [name]: string[],
): Promise<number> {
  if (!validProfileName(name)) throw new AppError('usage', `"${name}" is not a valid profile name (letters, digits, . _ -)`)
  // `--base-url` is also a global flag; commander gives it to whichever level it was written at.
  const baseUrl = o.baseUrl ?? ctx.globals.baseUrl
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
  if (ctx.profiles().get(name)) throw new AppError('usage', `profile "${name}" already exists: remove it first`)
  const apiKey = o.apiKeyStdin ? await readStdinLine(ctx.io) : undefined
  const where = ctx.secrets().save(
    name,
    {
      target: baseUrl ? baseUrl.replace(/\/+$/, '') : 'embedded',
      database: baseUrl ? undefined : o.database,
      api_key: apiKey || undefined,
      protected: o.protected || undefined,
    },
    { replace: true, insecure: o.insecureStorage },
  )
  if (o.use || !ctx.profiles().current) ctx.profiles().setCurrent(name)
  note(
    ctx.io,
    ctx.printer,
    `added profile "${name}"${apiKey ? ` with an API key ${storageWords(where)}` : ''}${o.use ? ' and made it current' : ''}`,
  )
  return 0
}

async function runRemove(ctx: Context, _o: object, [name]: string[]): Promise<number> {
  if (ctx.profiles().get(name)) ctx.secrets().forget(name, SECRETS, { removeProfile: true })
  if (!ctx.profiles().remove(name)) throw new AppError('not_found', `no profile named "${name}"`)
  note(ctx.io, ctx.printer, `removed profile "${name}"`)
  return 0
}
