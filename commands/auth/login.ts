/** finctl login [--email E] [--password-stdin] [--insecure-storage]: a user's access token kept in the current profile. */
import type { Command } from 'commander'
import type { Context } from '../../src/cli/context.js'
import { storageWords } from '../../src/cli/credentials.js'
import { readStdinLine } from '../../src/cli/io.js'
import { note } from '../../src/cli/output.js'
import { type PromptHost, promptPassword, promptText, valueOrPrompt } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'

export interface LoginOptions {
  email?: string
  passwordStdin?: boolean
  insecureStorage?: boolean
}

/** The host of `login`: it asks, opens a client without the profile's credentials, and saves to the profile. */
export type LoginHost = VerbHost &
  PromptHost &
  Pick<Context, 'client' | 'profileName' | 'profile' | 'target' | 'describeTarget' | 'secrets'>

export function registerLogin(program: Command, run: Runner, runF: RunVerb<LoginOptions, LoginHost> = runLogin): void {
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
    .action(run(runF))
}

export async function runLogin(host: LoginHost, o: LoginOptions): Promise<number> {
  const name = host.profileName()
  const profile = host.profile()
  const email = await valueOrPrompt(host, o.email ?? profile?.email, '--email', 'the email', () => promptText(host, 'Email'))
  let password: string
  if (o.passwordStdin) password = await readStdinLine(host.io)
  else if (host.canPrompt()) password = await promptPassword(host, 'Password', { minLength: 1 })
  else throw new AppError('usage', 'the password is required: pipe it to --password-stdin')
  const client = await host.client({ apiKey: undefined, token: undefined })
  const t = await client.token(email, password)
  const target = host.target()
  const env = host.io.env
  const where = host.secrets().save(
    name,
    {
      target: target.kind === 'remote' ? target.baseUrl : 'embedded',
      ...(target.kind === 'embedded' && (env.FINCTL_DATABASE || profile?.database)
        ? { database: env.FINCTL_DATABASE ?? profile?.database }
        : {}),
      access_token: t.access_token,
      token_expires_at: new Date(host.io.now().getTime() + t.expires_in * 1000).toISOString(),
      email,
    },
    { insecure: o.insecureStorage },
  )
  note(
    host.io,
    host.printer,
    `Logged in as ${email} on ${host.describeTarget()}; token saved in profile "${name}", ${storageWords(where)} (expires in ${Math.round(t.expires_in / 3600)} h)`,
  )
  return 0
}
