/**
 * Figure 1: CLI start-up. Wall time of `node bin/finctl.cjs --version`, `keys show`, `tx list` and a completion request
 * against the embedded default database holding the demo data, each beside `node -e 0`, run interleaved (rotating order) so that
 * drift in the machine's load hits all of them alike. With `against` (another built checkout), its finctl commands run in the
 * same rotation, each with a demo database of its own: a regression is then measured against that build, not against how fast
 * `node -e 0` happens to be that day (docs/performance.md, "Start-up guards").
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { cleanEnv, makeTempDir, runTimed } from './children.js'

export interface CliCommand {
  id: string
  label: string
  args: string[]
  /** The demo database the command reads (each build its own). */
  env?: NodeJS.ProcessEnv
}

export interface CliStartupOptions {
  root: string
  runs: number
  warmups: number
  /** Stop taking samples after this long (the runs done so far are kept). */
  budgetMs: number
  log: (line: string) => void
  /** Another built checkout whose commands are timed in the same rotation (ids prefixed `ref-`). */
  against?: string
}

export interface CliStartupSamples {
  commands: CliCommand[]
  /** Milliseconds per command id, index i = iteration i (so they can be paired). */
  samples: Record<string, number[]>
  /** Processor time (user + system) in milliseconds, the same way; empty where bash's `time` is not there. */
  cpu: Record<string, number[]>
  configDir: string
  truncated: boolean
}

export function measureCliStartup(o: CliStartupOptions): CliStartupSamples {
  const node = process.execPath
  const ours = finctlCommands(o.root, '', o.log)
  const commands: CliCommand[] = [{ id: 'node', label: 'node -e 0', args: ['-e', '0'], env: ours.env }, ...ours.commands]
  if (o.against) commands.push(...finctlCommands(o.against, 'ref-', o.log).commands)
  const timed = bashTime(node, commands[0])
  const run = (c: CliCommand): { ms: number; cpuMs?: number } =>
    timed ? timed(c) : { ms: runTimed(node, c.args, { cwd: c.env?.FINCTL_CONFIG_DIR, env: c.env }).ms }

  for (let w = 0; w < o.warmups; w++) for (const c of commands) run(c)

  const samples: Record<string, number[]> = Object.fromEntries(commands.map((c) => [c.id, [] as number[]]))
  const cpu: Record<string, number[]> = Object.fromEntries(commands.map((c) => [c.id, [] as number[]]))
  const deadline = performance.now() + o.budgetMs
  let truncated = false
  for (let i = 0; i < o.runs; i++) {
    if (performance.now() > deadline) {
      truncated = true
      o.log(`cli: time budget used up after ${i} of ${o.runs} runs`)
      break
    }
    for (let k = 0; k < commands.length; k++) {
      const c = commands[(i + k) % commands.length]
      const r = run(c)
      samples[c.id].push(r.ms)
      if (r.cpuMs !== undefined) cpu[c.id].push(r.cpuMs)
    }
  }
  return { commands, samples, cpu, configDir: ours.env.FINCTL_CONFIG_DIR!, truncated }
}

/**
 * Each run through bash's `time`: the child's wall time and its processor time (the kernel's
 * accounting of the reaped child, to the millisecond), without bash's own start. Processor time
 * moves far less than wall time on a loaded machine. Undefined where bash cannot time `probe`.
 */
function bashTime(node: string, probe: CliCommand): ((c: CliCommand) => { ms: number; cpuMs: number }) | undefined {
  const timed = (c: CliCommand) => {
    const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>&1; } 2>&1', 'time', node, ...c.args], {
      cwd: c.env?.FINCTL_CONFIG_DIR,
      env: c.env,
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    })
    const [real, user, sys] = (r.stdout ?? '').trim().split('\n').at(-1)?.split(' ').map(Number) ?? []
    if (r.status !== 0 || ![real, user, sys].every(Number.isFinite))
      throw new Error(`bash time ${c.label}: ${r.status} ${r.stdout}${r.stderr}`)
    return { ms: real * 1000, cpuMs: (user + sys) * 1000 }
  }
  try {
    timed(probe)
    return timed
  } catch {
    return undefined
  }
}

/** The four finctl commands of one built checkout, on demo data of their own, each checked before it is timed. */
function finctlCommands(root: string, prefix: string, log: (line: string) => void): { commands: CliCommand[]; env: NodeJS.ProcessEnv } {
  const node = process.execPath
  const bin = join(root, 'bin', 'finctl.cjs')
  const configDir = makeTempDir('cli')
  const env = cleanEnv({ FINCTL_CONFIG_DIR: configDir })
  const run = (args: string[]) => runTimed(node, [bin, ...args], { cwd: configDir, env, timeoutMs: 60_000 }).stdout

  log(`cli: ${root}: FINCTL_CONFIG_DIR=${configDir}; finctl init --demo --no-input`)
  run(['init', '--demo', '--no-input'])
  const version = run(['--version']).trim()
  if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`finctl --version printed ${JSON.stringify(version)}`)
  const shown = run(['keys', 'show'])
  if (!/key_prefix/.test(shown)) throw new Error(`finctl keys show printed no key:\n${shown}`)
  const completed = run(['__complete', '--', 'tx', 'l'])
  if (!/^list\t/m.test(completed)) throw new Error(`finctl __complete -- tx l did not offer list:\n${completed}`)
  // The first page of the demo data, as a user's first `finctl tx list` after `finctl init --demo`.
  const listed = run(['tx', 'list', '--json'])
  if ((JSON.parse(listed) as unknown[]).length < 8)
    throw new Error(`finctl tx list did not print a page of the demo rows:\n${listed.slice(0, 500)}`)

  const of = prefix ? ' (reference build)' : ''
  const commands: CliCommand[] = [
    { id: `${prefix}version`, label: `finctl --version${of}`, args: [bin, '--version'], env },
    { id: `${prefix}keys-show`, label: `finctl keys show${of}`, args: [bin, 'keys', 'show'], env },
    { id: `${prefix}tx-list`, label: `finctl tx list${of}`, args: [bin, 'tx', 'list'], env },
    // What a shell's completion script runs on Tab after `finctl tx l`.
    { id: `${prefix}complete`, label: `finctl __complete${of}`, args: [bin, '__complete', '--', 'tx', 'l'], env },
  ]
  return { commands, env }
}
