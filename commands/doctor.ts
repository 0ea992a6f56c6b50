/**
 * finctl doctor: checks the set-up and the current target, prints a checklist (or the checks as
 * data with --json) and exits 1 when a check failed. Warnings (a clock off by more than 60 s, an
 * expired login token) do not fail it. It creates nothing (a missing database is left to `init`);
 * it removes the mark of a database found damaged once the file passes SQLite's integrity check.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { redactPasswords } from '../src/kernel/redact.js'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { configDir } from '../src/cli/profiles.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import { json, printJson } from '../src/cli/output.js'
import { printableLine } from '../src/cli/terminal-text.js'

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip'
export interface Check {
  name: string
  status: CheckStatus
  detail: string
}

export const MAX_CLOCK_SKEW_SECONDS = 60

export type DoctorOptions = Record<string, never>

/** The host of `doctor`: the settings it checks (profile, secrets, target) besides the VerbHost. */
export type DoctorHost = VerbHost &
  Pick<Context, 'profileName' | 'profile' | 'baseUrlSetting' | 'secrets' | 'apiKey' | 'token' | 'target' | 'describeTarget' | 'chalk'>

export function registerDoctor(program: Command, run: Runner, runF: RunVerb<DoctorOptions, DoctorHost> = runDoctor): void {
  program
    .command('doctor')
    .description('check the set-up and the current target: permissions, profile, connection, credentials, database, clock')
    .addHelpText(
      'after',
      '\nExits 1 when a check fails; warnings (clock skew over 60 s, an expired login token) do not.\n\nExamples:\n  finctl doctor\n  finctl --profile prod doctor --json\n',
    )
    .action(run(runF))
}

/** Which Node.js runs finctl. bin/finctl.cjs has already refused a line that is not supported (exit 9). */
function nodeCheck(version: string, execPath: string): Check {
  return { name: 'node', status: 'ok', detail: `Node.js ${version} (${execPath})` }
}

function modeCheck(name: string, path: string, want: number): Check {
  if (!existsSync(path)) return { name, status: 'skip', detail: `${path} does not exist yet` }
  const mode = statSync(path).mode & 0o777
  const octal = (m: number) => m.toString(8).padStart(4, '0')
  if (mode & 0o077 & ~want)
    return { name, status: 'fail', detail: `${path} has mode ${octal(mode)}, others can read it: chmod ${want.toString(8)} ${path}` }
  return { name, status: 'ok', detail: `${path} (${octal(mode)})` }
}

function profileCheck(host: DoctorHost): Check {
  const name = host.profileName()
  const p = host.profile()
  const overridden = host.baseUrlSetting() !== undefined
  if (!p && !overridden) {
    return {
      name: 'profile',
      status: 'fail',
      detail: `no profile "${name}": run \`finctl init\`, or \`finctl profile add NAME --base-url URL\` and \`finctl login\``,
    }
  }
  if (p && p.target !== 'embedded') {
    try {
      const u = new URL(p.target)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol')
    } catch {
      return { name: 'profile', status: 'fail', detail: `profile "${name}": target "${p.target}" is neither "embedded" nor an http(s) URL` }
    }
  }
  // A secret the profile keeps in the OS keyring says so (not one a flag or the environment gives).
  const given = { api_key: host.globals.apiKey ?? host.io.env.FINCTL_API_KEY, access_token: host.globals.token ?? host.io.env.FINCTL_TOKEN }
  const kept = (s: 'api_key' | 'access_token') => (!given[s] && host.secrets().where(p, s) === 'keyring' ? ' (OS keyring)' : '')
  const kinds = [host.apiKey() ? `API key${kept('api_key')}` : '', host.token() ? `login token${kept('access_token')}` : ''].filter(Boolean)
  const where = p ? `profile "${name}"` : 'the environment'
  if (kinds.length === 0)
    return { name: 'profile', status: 'fail', detail: `${where} holds no credentials: run \`finctl login\`, or give FINCTL_API_KEY` }
  const expires = p?.token_expires_at ? Date.parse(p.token_expires_at) : NaN
  if (
    p &&
    host.secrets().where(p, 'access_token') &&
    expires < host.io.now().getTime() &&
    !host.globals.token &&
    !host.io.env.FINCTL_TOKEN
  ) {
    return {
      name: 'profile',
      status: 'warn',
      detail: `${where}: the login token expired at ${p.token_expires_at}: run \`finctl login\` (key administration needs it)`,
    }
  }
  return {
    name: 'profile',
    status: 'ok',
    detail: `${where}, ${host.describeTarget()}, ${kinds.join(' and ')}${p?.protected ? ', protected' : ''}`,
  }
}

async function integrityCheck(database: string): Promise<Check> {
  if (/^postgres(ql)?:\/\//i.test(database))
    return { name: 'database', status: 'skip', detail: "PostgreSQL: check it with the server's own tools" }
  if (!existsSync(database)) return { name: 'database', status: 'fail', detail: `no database at ${database}: run \`finctl init\`` }
  // A file finctl found damaged refuses writes (src/store/sqlite/damage-mark.ts) until this check passes.
  const { readDamageMark, clearDamageMark } = await import('../src/store/sqlite/damage-mark.js')
  const mark = readDamageMark(database)
  const refused = mark
    ? `; writes are refused since ${mark.found_at || 'the damage was found'}: restore a backup, then run \`finctl doctor\` again`
    : ''
  try {
    const { default: Database } = await import('better-sqlite3')
    const db = new Database(database, { readonly: true, fileMustExist: true })
    try {
      const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>
      const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok')
      if (problems.length > 0)
        return { name: 'database', status: 'fail', detail: `${database}: ${problems.slice(0, 3).join('; ')}${refused}` }
    } finally {
      db.close()
    }
    const cleared = mark && clearDamageMark(database) ? ' (it was marked damaged: writes are allowed again)' : ''
    return { name: 'database', status: 'ok', detail: `${database}: integrity check ok${cleared}` }
  } catch (err) {
    return { name: 'database', status: 'fail', detail: `${database}: ${(err as Error).message}${refused}` }
  }
}

async function targetChecks(host: DoctorHost, checks: Check[]): Promise<void> {
  const target = host.target()
  let health: { data: { version?: string; store?: string }; headers: Headers }
  const started = host.io.now().getTime()
  try {
    const client = await host.client()
    health = await client.request<{ version?: string; store?: string }>('GET', '/healthz', { auth: 'none' })
  } catch (err) {
    checks.push({ name: 'reachable', status: 'fail', detail: (err as Error).message })
    checks.push({ name: 'credentials', status: 'skip', detail: 'the target cannot be reached' })
    return
  }
  const finished = host.io.now().getTime()
  checks.push({
    name: 'reachable',
    status: 'ok',
    detail: `${host.describeTarget()}: finctl ${health.data.version ?? '?'} on ${health.data.store ?? '?'}`,
  })

  try {
    const client = await host.client()
    const company = await client.company()
    checks.push({ name: 'credentials', status: 'ok', detail: `accepted: company "${company.name}"` })
  } catch (err) {
    const hint = err instanceof AppError && err.code === 'unauthorized' ? ' (check the API key, or run `finctl login`)' : ''
    checks.push({ name: 'credentials', status: 'fail', detail: `${(err as Error).message}${hint}` })
  }

  if (target.kind !== 'remote') return
  const date = health.headers.get('date')
  const serverTime = date ? Date.parse(date) : NaN
  if (!Number.isFinite(serverTime)) {
    checks.push({ name: 'clock', status: 'warn', detail: 'the service sent no Date header: clock skew unknown' })
    return
  }
  // The Date header has whole seconds: compare with the middle of the request, allow its rounding.
  const skew = Math.round((serverTime + 500 - (started + finished) / 2) / 1000)
  const detail = skew === 0 ? 'within 1 s of the service' : `${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the service`
  checks.push(
    Math.abs(skew) > MAX_CLOCK_SKEW_SECONDS
      ? {
          name: 'clock',
          status: 'warn',
          detail: `this machine's clock is ${detail} (over ${MAX_CLOCK_SKEW_SECONDS} s: tokens and rate-limit windows may be off)`,
        }
      : { name: 'clock', status: 'ok', detail },
  )
}

export async function runDoctor(host: DoctorHost): Promise<number> {
  // Permissions first: opening the profile store creates and chmods the folder.
  const dir = configDir(host.io.env)
  const checks: Check[] = [
    nodeCheck(process.versions.node, process.execPath),
    modeCheck('config folder', dir, 0o700),
    modeCheck('profiles file', join(dir, 'profiles.json'), 0o600),
  ]
  const profile = profileCheck(host)
  checks.push(profile)
  const target = host.target()
  // A target to try: the profile's, or one given by --base-url / FINCTL_BASE_URL.
  let reachable = host.profile() !== undefined || host.baseUrlSetting() !== undefined
  if (target.kind === 'embedded') {
    checks.push(await integrityCheck(target.database))
    // Opening a missing database would create it: leave that to `finctl init`.
    if (!/^postgres(ql)?:\/\//i.test(target.database) && !existsSync(target.database)) reachable = false
  }
  if (reachable) await targetChecks(host, checks)
  else checks.push({ name: 'reachable', status: 'skip', detail: 'fix the checks above first' })

  // Details quote paths, URLs and error messages: a database URL's password is never among them.
  for (const k of checks) k.detail = redactPasswords(k.detail)
  if (host.printer.format === 'json' || host.printer.format === 'ndjson') {
    const failed = checks.some((c) => c.status === 'fail')
    if (host.printer.format === 'json') await printJson(host.io, host.printer, { ok: !failed, checks })
    else host.io.stdout.write(`${checks.map((c) => json(c)).join('\n')}\n`)
  } else {
    const fancy = host.io.isStdoutTTY
    const c = host.chalk
    const mark: Record<CheckStatus, string> = fancy
      ? { ok: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗'), skip: c.dim('-') }
      : { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' }
    const width = Math.max(...checks.map((k) => k.name.length))
    for (const k of checks) host.io.stdout.write(`${mark[k.status]} ${k.name.padEnd(width)}  ${printableLine(k.detail)}\n`)
  }
  return checks.some((c) => c.status === 'fail') ? EXIT.failure : EXIT.ok
}
