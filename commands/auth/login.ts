/**
 * finctl login [--email E | --invite TOKEN] [--password-stdin] [--insecure-storage]: a user's access
 * token kept in the current profile; with --invite, the invitation is accepted first (docs/people.md).
 */
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
  invite?: string
  passwordStdin?: boolean
  insecureStorage?: boolean
}

/** The host of `login`: it asks, opens a client without the profile's credentials, and saves to the profile. */
export type LoginHost = VerbHost &
  PromptHost &
  Pick<Context, 'client' | 'profileName' | 'profile' | 'draftProfile' | 'target' | 'describeTarget' | 'secrets'>

export function registerLogin(program: Command, run: Runner, runF: RunVerb<LoginOptions, LoginHost> = runLogin): void {
  program
    .command('login')
    .description('log in as a user and keep the access token (JWT) in the current profile (in the OS keyring when there is one)')
    .option('--email <email>', 'user email')
    .option('--invite <token>', 'accept an invitation (finctl users invite) and choose a password')
    .option('--password-stdin', 'read the password from stdin')
    .option('--insecure-storage', 'keep the secrets in profiles.json (mode 0600) even when the OS keyring is available')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl --profile prod login --email me@acme.test\n  echo "$PASSWORD" | finctl login --email me@acme.test --password-stdin\n  finctl login --invite fdi_…   # asks for a new password; or pipe it to --password-stdin\n',
    )
    .action(run(runF))
}

export async function runLogin(host: LoginHost, o: LoginOptions): Promise<number> {
  const name = host.profileName()
  const created = host.draftProfile() !== undefined
  const profile = host.profile()
  if (o.invite !== undefined && o.email !== undefined)
    throw new AppError('usage', 'give --invite or --email, not both: the invitation names the email')
  let email: string
  let t: { access_token: string; expires_in: number }
  if (o.invite !== undefined) {
    if (!o.invite.trim()) throw new AppError('usage', '--invite: the invitation token is empty')
    let password: string
    if (o.passwordStdin) password = await readStdinLine(host.io)
    else if (host.canPrompt()) password = await promptPassword(host, 'New password', { minLength: 8, confirm: true })
    else throw new AppError('usage', 'choose a password: pipe it to --password-stdin')
    const client = await host.client({ apiKey: undefined, token: undefined })
    const accepted = await client.acceptInvite(o.invite.trim(), password)
    email = accepted.user.email
    t = accepted
    note(host.io, host.printer, `Invitation accepted: ${email} joined as ${accepted.user.role}`)
  } else {
    email = await valueOrPrompt(host, o.email ?? profile?.email, '--email', 'the email', () => promptText(host, 'Email'))
    let password: string
    if (o.passwordStdin) password = await readStdinLine(host.io)
    else if (host.canPrompt()) password = await promptPassword(host, 'Password', { minLength: 1 })
    else throw new AppError('usage', 'the password is required: pipe it to --password-stdin')
    const client = await host.client({ apiKey: undefined, token: undefined })
    t = await client.token(email, password)
  }
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
    `Logged in as ${email} on ${host.describeTarget()}; token saved in ${created ? 'the new ' : ''}profile "${name}", ${storageWords(where)} (expires in ${Math.round(t.expires_in / 3600)} h)`,
  )
  return 0
}
