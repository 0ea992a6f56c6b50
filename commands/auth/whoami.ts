/** finctl whoami: the target, the company, the user and role, the credential in use, its scopes and where it is kept. */
import type { Command } from 'commander'
import type { Context } from '../../src/cli/context.js'
import type { SecretName } from '../../src/cli/credentials.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type WhoamiOptions = Record<string, never>

/** The host of `whoami`: the profile, the token in use and where the secrets are kept. */
export type WhoamiHost = VerbHost & Pick<Context, 'profileName' | 'profile' | 'describeTarget' | 'token' | 'secrets'>

export function registerWhoami(program: Command, run: Runner, runF: RunVerb<WhoamiOptions, WhoamiHost> = runWhoami): void {
  program
    .command('whoami')
    .description('show the target, company, user and role, credential kind and scopes')
    .addHelpText('after', '\nExamples:\n  finctl whoami\n  finctl --profile prod whoami --json\n')
    .action(run(runF))
}

/** The claims of a JWT, decoded for display only (the server verifies it). */
function jwtClaims(token: string): { scopes?: string[]; exp?: number; sub?: string } {
  try {
    return JSON.parse(Buffer.from(token.replace(/^Bearer\s+/i, '').split('.')[1], 'base64url').toString('utf8'))
  } catch {
    return {}
  }
}

export async function runWhoami(host: WhoamiHost): Promise<number> {
  const client = await host.client()
  const [company, me] = await Promise.all([client.company(), client.users.me()])
  const out: Record<string, unknown> = {
    profile: host.profileName(),
    target: host.describeTarget(),
    company: company.name,
    company_id: company.id,
    base_currency: company.base_currency,
    // A login's user, or the user who created the key.
    user: me.user?.email ?? null,
    user_id: me.user?.id ?? null,
    role: me.user?.role ?? null,
  }
  if (client.hasApiKey) {
    const key = await client.keys.me()
    Object.assign(out, { credential: 'api_key', key_prefix: key.key_prefix, key_name: key.name, scopes: key.scopes })
  } else {
    const claims = jwtClaims(host.token() ?? '')
    Object.assign(out, {
      credential: 'access_token',
      email: host.profile()?.email ?? null,
      // What the role allows now (the server's answer), not only what the token says.
      scopes: me.scopes,
      token_expires_at: claims.exp ? new Date(claims.exp * 1000).toISOString() : null,
    })
  }
  Object.assign(out, { api_key_storage: storageOf(host, 'api_key'), access_token_storage: storageOf(host, 'access_token') })
  await printRecord(host.io, host.printer, out)
  return 0
}

/** Where a credential in use comes from: the flag, the environment, the OS keyring, the file, or nowhere (null). */
function storageOf(host: WhoamiHost, secret: SecretName): string | null {
  const flag = secret === 'api_key' ? host.globals.apiKey : host.globals.token
  if (flag) return secret === 'api_key' ? '--api-key' : '--token'
  const variable = secret === 'api_key' ? 'FINCTL_API_KEY' : 'FINCTL_TOKEN'
  if (host.io.env[variable]) return variable
  const where = host.secrets().where(host.profile(), secret)
  return where === 'keyring' ? 'keyring' : where === 'file' ? 'profiles.json' : null
}
