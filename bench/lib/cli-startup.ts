/**
 * Figure 1: CLI start-up. Wall time of `node bin/finctl.cjs --version`, `keys show`, `tx list` and a completion request
 * against the embedded default database holding the demo data, each beside `node -e 0`, run interleaved (rotating order) so that
 * drift in the machine's load hits all of them alike.
 */
import { join } from 'node:path'
import { cleanEnv, makeTempDir, runTimed } from './children.js'

export interface CliCommand {
  id: string
  label: string
  args: string[]
}

export interface CliStartupOptions {
  root: string
  runs: number
  warmups: number
  /** Stop taking samples after this long (the runs done so far are kept). */
  budgetMs: number
  log: (line: string) => void
}

export interface CliStartupSamples {
  commands: CliCommand[]
  /** Milliseconds per command id, index i = iteration i (so they can be paired). */
  samples: Record<string, number[]>
  configDir: string
  truncated: boolean
}

export function measureCliStartup(o: CliStartupOptions): CliStartupSamples {
  const node = process.execPath
  const bin = join(o.root, 'bin', 'finctl.cjs')
  const configDir = makeTempDir('cli')
  const env = cleanEnv({ FINCTL_CONFIG_DIR: configDir })

  o.log(`cli: FINCTL_CONFIG_DIR=${configDir}; finctl init --demo --no-input`)
  runTimed(node, [bin, 'init', '--demo', '--no-input'], { cwd: configDir, env, timeoutMs: 60_000 })

  const commands: CliCommand[] = [
    { id: 'node', label: 'node -e 0', args: ['-e', '0'] },
    { id: 'version', label: 'finctl --version', args: [bin, '--version'] },
    { id: 'keys-show', label: 'finctl keys show', args: [bin, 'keys', 'show'] },
    { id: 'tx-list', label: 'finctl tx list', args: [bin, 'tx', 'list'] },
    // What a shell's completion script runs on Tab after `finctl tx l`.
    { id: 'complete', label: 'finctl __complete', args: [bin, '__complete', '--', 'tx', 'l'] },
  ]
  // Check the commands do what they should before timing them.
  const version = runTimed(node, [bin, '--version'], { cwd: configDir, env }).stdout.trim()
  if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`finctl --version printed ${JSON.stringify(version)}`)
  const shown = runTimed(node, [bin, 'keys', 'show'], { cwd: configDir, env }).stdout
  if (!/key_prefix/.test(shown)) throw new Error(`finctl keys show printed no key:\n${shown}`)
  const completed = runTimed(node, [bin, '__complete', '--', 'tx', 'l'], { cwd: configDir, env }).stdout
  if (!/^list\t/m.test(completed)) throw new Error(`finctl __complete -- tx l did not offer list:\n${completed}`)
  // The first page of the demo data, as a user's first `finctl tx list` after `finctl init --demo`.
  const listed = runTimed(node, [bin, 'tx', 'list', '--json'], { cwd: configDir, env }).stdout
  if ((JSON.parse(listed) as unknown[]).length < 8)
    throw new Error(`finctl tx list did not print a page of the demo rows:\n${listed.slice(0, 500)}`)

  for (let w = 0; w < o.warmups; w++) for (const c of commands) runTimed(node, c.args, { cwd: configDir, env })

  const samples: Record<string, number[]> = Object.fromEntries(commands.map((c) => [c.id, [] as number[]]))
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
      samples[c.id].push(runTimed(node, c.args, { cwd: configDir, env }).ms)
    }
  }
  return { commands, samples, configDir, truncated }
}
