/**
 * A setup file (vitest.config.ts): a test file ends with the process as it found it. The files of
 * the shared project run one after another in one worker and one module graph (`isolate: false`),
 * so an environment variable, the working folder, an exit code, fake timers or a process listener a
 * file leaves would reach the next file. The file's last hook compares them with what they were
 * before its first, and fails the file naming what it left.
 */
import { afterAll, beforeAll, vi } from 'vitest'

// process.listeners is typed per event; any event's listeners are functions.
type Listener = (...args: never[]) => unknown
const listenersOf = (name: string | symbol) => (process as NodeJS.EventEmitter).listeners(name) as Listener[]

interface Snapshot {
  env: Record<string, string | undefined>
  cwd: string
  exitCode: typeof process.exitCode
  listeners: Map<string | symbol, Listener[]>
}

/**
 * Listeners a module adds once, when it is loaded, and keeps for the process (as in one finctl
 * process): tmp's clean-up at exit, which exceljs loads. They do not pile up file after file.
 */
const ONCE_PER_PROCESS = new Set(['_garbageCollector'])

function snapshot(): Snapshot {
  return {
    env: { ...process.env },
    cwd: process.cwd(),
    exitCode: process.exitCode,
    listeners: new Map(process.eventNames().map((name) => [name, listenersOf(name)])),
  }
}

let before: Snapshot | undefined
beforeAll(() => {
  before = snapshot()
})

afterAll(() => {
  if (!before) return
  const now = snapshot()
  const left: string[] = []
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(now.env)])) {
    if (before.env[key] !== now.env[key]) left.push(`process.env.${key} (${before.env[key] === undefined ? 'set' : 'changed'})`)
  }
  if (now.cwd !== before.cwd) left.push(`the working folder (${now.cwd})`)
  if (now.exitCode !== before.exitCode) left.push(`process.exitCode (${String(now.exitCode)})`)
  if (vi.isFakeTimers()) left.push('fake timers (vi.useRealTimers)')
  for (const name of new Set([...before.listeners.keys(), ...now.listeners.keys()])) {
    const was = before.listeners.get(name) ?? []
    const added = (now.listeners.get(name) ?? []).filter((fn) => !was.includes(fn) && !ONCE_PER_PROCESS.has(fn.name))
    // Its first line names it: which module added it.
    for (const fn of added) left.push(`a process '${String(name)}' listener (${String(fn).split('\n')[0].slice(0, 80)})`)
  }
  if (left.length > 0) {
    // Put back what can be, so that the next file does not fail for this one as well.
    for (const key of Object.keys(now.env)) if (!(key in before.env)) delete process.env[key]
    Object.assign(process.env, before.env)
    if (now.cwd !== before.cwd) process.chdir(before.cwd)
    process.exitCode = before.exitCode
    vi.useRealTimers()
    throw new Error(`the test file left ${left.join(', ')}: each file restores what it changes (CONTRIBUTING.md "Tests")`)
  }
})
