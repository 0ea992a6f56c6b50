/** finctl login | logout | whoami */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { Context } from '../src/cli/context.js'
import { type SecretName, storageWords } from '../src/cli/credentials.js'
import { readStdinLine } from '../src/cli/io.js'
import { note, printRecord } from '../src/cli/output.js'
import { promptPassword, valueOrPrompt, promptText } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/runner.js'

export function registerAuth(program: Command, run: Runner): void {
  program
    .command('login')
    .description('log in as a user and keep the access token (JWT) in the current profile (in the OS keyring when there is one)')
    .option('--email <email>', 'user email')
    .option('--password-stdin', 'read the password from stdin')
    .option('--insecure-storage', 'keep the secrets in profiles.json (mode 0600) even when the OS keyring is available')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl --profile prod login --email me@acme.test\n  echo "$PASSWORD" | finctl login --email me@acme.test --password-stdin\n',
    )
    .action(run(runLogin))

  program
    .command('logout')
    .description('forget the access token of the current profile')
    .addHelpText('after', '\nExample:\n  finctl --profile prod logout\n')
    .action(run(runLogout))

  program
    .command('whoami')
    .description('show the target, company, credential kind and scopes')
    .addHelpText('after', '\nExamples:\n  finctl whoami\n  finctl --profile prod whoami --json\n')
    .action(run(runWhoami))
}

export async function runLogin(ctx: Context, o: { email?: string; passwordStdin?: boolean; insecureStorage?: boolean }): Promise<number> {
  const name = ctx.profileName()
  const profile = ctx.profile()
  const email = await valueOrPrompt(ctx, o.email ?? profile?.email, '--email', 'the email', () => promptText(ctx, 'Email'))
  let password: string
  if (o.passwordStdin) password = await readStdinLine(ctx.io)
  else if (ctx.canPrompt()) password = await promptPassword(ctx, 'Password', { minLength: 1 })
  else throw new AppError('usage', 'the password is required: pipe it to --password-stdin')
  const client = await ctx.client({ apiKey: undefined, token: undefined })
  const t = await client.token(email, password)
  const target = ctx.target()
  const where = ctx.secrets().save(
    name,
    {
      target: target.kind === 'remote' ? target.baseUrl : 'embedded',
      ...(target.kind === 'embedded' && (ctx.env.FINCTL_DATABASE || profile?.database)
        ? { database: ctx.env.FINCTL_DATABASE ?? profile?.database }
        : {}),
      access_token: t.access_token,
      token_expires_at: new Date(ctx.io.now().getTime() + t.expires_in * 1000).toISOString(),
      email,
    },
    { insecure: o.insecureStorage },
  )
  note(
    ctx.io,
    ctx.printer,
    `Logged in as ${email} on ${ctx.describeTarget()}; token saved in profile "${name}", ${storageWords(where)} (expires in ${Math.round(t.expires_in / 3600)} h)`,
  )
  return 0
}

export async function runLogout(ctx: Context): Promise<number> {
  const name = ctx.profileName()
  const p = ctx.profile()
  if (!ctx.secrets().where(p, 'access_token')) {
    note(ctx.io, ctx.printer, `profile "${name}" holds no access token`)
    return 0
  }
  ctx.secrets().forget(name, ['access_token'])
  ctx.profiles().update(name, { token_expires_at: undefined })
  note(ctx.io, ctx.printer, `Logged out of profile "${name}" (its API key, if any, is kept)`)
  return 0
}

/** The claims of a JWT, decoded for display only (the server verifies it). */
function jwtClaims(token: string): { scopes?: string[]; exp?: number; sub?: string } {
  try {
    return JSON.parse(Buffer.from(token.replace(/^Bearer\s+/i, '').split('.')[1], 'base64url').toString('utf8'))
  } catch {
    return {}
  }
}

export async function runWhoami(ctx: Context): Promise<number> {
  const client = await ctx.client()
  const company = await client.company()
  const out: Record<string, unknown> = {
    profile: ctx.profileName(),
    target: ctx.describeTarget(),
    company: company.name,
    company_id: company.id,
    base_currency: company.base_currency,
  }
  if (client.hasApiKey) {
    const key = await client.keys.me()
    Object.assign(out, { credential: 'api_key', key_prefix: key.key_prefix, key_name: key.name, scopes: key.scopes })
  } else {
    const claims = jwtClaims(ctx.token() ?? '')
    Object.assign(out, {
      credential: 'access_token',
      email: ctx.profile()?.email ?? null,
      scopes: claims.scopes ?? [],
      token_expires_at: claims.exp ? new Date(claims.exp * 1000).toISOString() : null,
    })
  }
  Object.assign(out, { api_key_storage: storageOf(ctx, 'api_key'), access_token_storage: storageOf(ctx, 'access_token') })
  await printRecord(ctx.io, ctx.printer, out)
  return 0
}

/** Where a credential in use comes from: the flag, the environment, the OS keyring, the file, or nowhere (null). */
function storageOf(ctx: Context, secret: SecretName): string | null {
  const flag = secret === 'api_key' ? ctx.globals.apiKey : ctx.globals.token
  if (flag) return secret === 'api_key' ? '--api-key' : '--token'
  const variable = secret === 'api_key' ? 'FINCTL_API_KEY' : 'FINCTL_TOKEN'
  if (ctx.env[variable]) return variable
  const where = ctx.secrets().where(ctx.profile(), secret)
  return where === 'keyring' ? 'keyring' : where === 'file' ? 'profiles.json' : null
}
