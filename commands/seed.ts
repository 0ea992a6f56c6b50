/**
 * `finctl seed FILE [--dry-run] [--env-out FILE]`: declarative, idempotent seeding for CI.
 * Flags -> the seed file, validated in full (exit 6 before any write) -> src/jobs/seed/run.ts -> the
 * steps as a table (or the report as JSON) and the ids and new keys as NAME=value lines.
 */
import { count } from '../src/kernel/words.js'
import { existsSync, readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { checkOutputFile, type OutputOptions, writeOutputFile } from '../src/jobs/output-file.js'
import { note, printList, printRecord, say, warn } from '../src/cli/output.js'
import { printableLine } from '../src/cli/terminal-text.js'
import { interruptible, stoppedBy } from '../src/cli/interrupt.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import type { SeedReport, StepOutcome } from '../src/jobs/seed/run.js'

export function registerSeed(program: Command, run: Runner, runF: RunVerb<SeedOptions, SeedHost> = runSeed): void {
  program
    .command('seed')
    .argument('<file>', 'a seed file: JSON, or YAML (.yaml / .yml)')
    .description(
      'create bank accounts, transactions, CSV imports, statements and API keys from a seed file; running it again creates nothing new',
    )
    .option('--dry-run', 'print the plan (what would be created, updated or left as it is); write nothing')
    .option('--env-out <file>', 'write the ids of the seeded objects and new API keys as NAME=value lines (mode 0600)')
    .option('--overwrite', 'let --env-out replace an existing file (the keys it holds are kept)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  finctl seed examples/seed.json --dry-run\n' +
        '  finctl seed ci/seed.yaml --env-out .seed.env && . ./.seed.env\n' +
        '\nEach step is found again by a marker kept in the service (an account by its name, a transaction by its\n' +
        'import_ref seed.STEP.N, a statement by its file, an API key by its name): "exists", "updated" or "created".\n' +
        'Exit codes: 0 every step done; 8 some steps failed (each listed); 6 the seed file is not valid (nothing written);\n' +
        '130, 143 stopped by Ctrl-C or SIGTERM (the steps done named, new keys printed; the same command again goes on).\n',
    )
    .action(run(runF))
}

/** The host of `seed`: it names the target it seeds. */
export type SeedHost = VerbHost & Pick<Context, 'describeTarget'>

export interface SeedOptions {
  dryRun?: boolean
  envOut?: string
  overwrite?: boolean
}

const STATUS_COLUMNS = [
  { header: 'step', value: (s: StepOutcome) => s.step },
  { header: 'kind', value: (s: StepOutcome) => s.kind },
  { header: 'status', value: (s: StepOutcome) => s.status },
  { header: 'id', value: (s: StepOutcome) => s.id ?? '' },
  { header: 'detail', value: (s: StepOutcome) => s.detail },
]

export async function runSeed(ctx: SeedHost, o: SeedOptions, [file]: string[]): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  const { resolve } = await import('node:path')
  await requireInputFile(file)
  const inputs = [{ path: file, what: 'the seed file' }]
  const envOut = { flag: '--env-out', overwrite: o.overwrite, secret: true, inputs }
  const { parseSeedText, validateSeed, SeedInvalid } = await import('../src/jobs/seed/validate.js')
  let seed: Awaited<ReturnType<typeof validateSeed>>
  try {
    seed = validateSeed(await parseSeedText(await readFile(file, 'utf8'), file), {
      env: ctx.io.env,
      now: ctx.io.now(),
      path: resolve(file),
    })
  } catch (e) {
    if (e instanceof SeedInvalid)
      throw new AppError('validation_error', `${file}: ${e.message}; nothing was written`, { details: e.problems })
    throw e
  }
  // Checked once the files the steps read are known, before any write.
  for (const step of seed.steps) if (step.file) inputs.push({ path: step.file, what: `the file of step "${step.name}"` })
  if (o.envOut !== undefined) checkOutputFile(o.envOut, envOut)
  const client = await ctx.client()
  const { runSeed } = await import('../src/jobs/seed/run.js')
  note(
    ctx.io,
    ctx.printer,
    `${o.dryRun ? 'dry run (nothing is written): ' : ''}seeding ${count(seed.steps.length, 'step')} from ${file} on ${ctx.describeTarget()}`,
  )
  const filling = {} as SeedReport
  const { report, fatal } = await interruptible(
    runSeed(client, seed, { dryRun: o.dryRun, now: ctx.io.now(), report: filling }),
    (signal) => seedStopped(signal, filling, seed.steps.length, o),
    () => {
      // A key is shown only when it is created: the ones this run made go out before it stops.
      for (const [k, v] of newKeys(filling)) ctx.io.stdout.write(`${k}=${v}\n`)
    },
  )

  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') await printRecord(ctx.io, ctx.printer, report)
  else await printList(ctx.io, ctx.printer, report.steps, STATUS_COLUMNS)
  for (const s of report.steps) {
    if (s.status !== 'failed' && s.status !== 'would fail') continue
    say(ctx.io, `error: step "${s.step}" (${s.kind}): ${s.detail}`)
    for (const e of s.errors ?? []) ctx.io.stderr.write(`  ${printableLine(e)}\n`)
  }
  const unknownKey = (name: string) =>
    note(
      ctx.io,
      ctx.printer,
      `${name}: the API key existed before this run, so its value cannot be written (a key is shown only when it is created)`,
    )

  if (o.envOut !== undefined && o.dryRun) note(ctx.io, ctx.printer, `dry run: ${o.envOut} is not written`)
  else if (o.envOut !== undefined) {
    const kept = writeEnvFile(o.envOut, report, file, ctx.io.now(), envOut)
    for (const name of Object.keys(report.keys_without_value)) {
      if (kept.includes(name)) note(ctx.io, ctx.printer, `${name}: kept from the previous ${o.envOut} (the same key)`)
      else unknownKey(name)
    }
    note(ctx.io, ctx.printer, `wrote ${Object.keys(report.env).length + kept.length} values to ${o.envOut} (mode 0600)`)
  } else {
    if (!o.dryRun) Object.keys(report.keys_without_value).forEach(unknownKey)
    const keys = newKeys(report)
    if (keys.length && ctx.printer.format !== 'json' && ctx.printer.format !== 'ndjson') {
      warn(ctx.io, 'new API keys are shown only now: store them (or use --env-out FILE)', ctx.printer.color)
      for (const [k, v] of keys) ctx.io.stdout.write(`${k}=${v}\n`)
    }
  }
  if (fatal) throw fatal
  if (report.failed) {
    ctx.io.stderr.write(`error: ${report.failed} of ${count(report.steps.length, 'step')} ${o.dryRun ? 'would fail' : 'failed'}\n`)
    return EXIT.partial
  }
  if (!o.dryRun) {
    const n = (st: string) => report.steps.filter((s) => s.status === st).length
    note(ctx.io, ctx.printer, `done: ${n('created')} created, ${n('updated')} updated, ${n('exists')} unchanged`)
  }
  return EXIT.ok
}

const newKeys = (report: SeedReport) => Object.entries(report.env ?? {}).filter(([k]) => k.startsWith('KEYS_') && k.endsWith('_KEY'))

/** What a stopped seed did, and that running it again is safe: each step finds what it made. */
function seedStopped(signal: 'SIGINT' | 'SIGTERM', report: SeedReport, of: number, o: SeedOptions): string {
  const done = report.steps ?? []
  if (o.dryRun) return `${stoppedBy(signal)}: the dry run wrote nothing`
  const steps = done.map((s) => `"${printableLine(s.step)}" ${s.status}`).join(', ')
  const sofar = done.length ? `after ${done.length} of ${of} steps (${steps})` : `before any of its ${of} steps finished`
  const keys = newKeys(report).length ? '; the API keys it created are on stdout, shown only now' : ''
  const env = o.envOut === undefined ? '' : `; ${printableLine(o.envOut)} was not written`
  return `${stoppedBy(signal)}: the seed stopped ${sofar}${keys}${env}: the same command again is safe, each step finds what it made and goes on`
}

/**
 * NAME=value lines, written to a temporary file (0600) and moved to FILE (output-file.ts). A key that
 * existed before has no value to write: the previous file's line is kept when it holds the same key
 * (its prefix matches), else a comment says why the line is missing. Returns the names kept.
 */
function writeEnvFile(path: string, report: SeedReport, seedFile: string, now: Date, o: OutputOptions): string[] {
  const previous = new Map<string, string>()
  // Checked before the run: an existing FILE is a regular file (not a link) and --overwrite was given.
  if (existsSync(path)) {
    for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line)
      if (m) previous.set(m[1], m[2])
    }
  }
  const lines = [`# finctl seed ${seedFile} at ${now.toISOString()}`]
  const kept: string[] = []
  for (const [k, v] of Object.entries(report.env)) lines.push(`${k}=${v}`)
  for (const [k, prefix] of Object.entries(report.keys_without_value)) {
    const old = previous.get(k)
    if (old?.startsWith(prefix)) {
      lines.push(`${k}=${old}`)
      kept.push(k)
    } else lines.push(`# ${k} is not known: the API key existed before this run (a key is shown only when it is created)`)
  }
  writeOutputFile(path, `${lines.join('\n')}\n`, o)
  return kept
}
