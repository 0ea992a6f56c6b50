/**
 * A setup file (vitest.config.ts): a test file leaves nothing behind, also when a test times out
 * before its own cleanup (vitest then runs the hooks and moves on, while the test's promise goes on
 * running, and a finctl it started may still write into its folder). Every temporary folder made
 * with fs.mkdtemp* and every child process started (spawn, execFile, exec, fork) is registered;
 * the file's last hook ends the processes still running, then removes the folders. From then on,
 * making a temporary folder or starting a process throws. (What the built CLI leaves in its own
 * process is still caught by the run's check in test/global-setup.ts; the import's spill folder,
 * the one product folder made in a test's process, has its own test in import-runner.test.ts.)
 */
import { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { afterAll } from 'vitest'

interface State {
  folders: string[]
  children: Set<ChildProcess>
  /** The file has ended: nothing more may be made. */
  closed: boolean
}

// The patches go in once per process and use the state of the file running now (a process may run
// several files, each with its own copy of this module).
const STATE = Symbol.for('finctl.test.leftovers')
const PATCHED = Symbol.for('finctl.test.leftovers.patched')
const shared = globalThis as { [STATE]?: State; [PATCHED]?: boolean }
const state: State = { folders: [], children: new Set(), closed: false }
shared[STATE] = state

function current(what: string): State | undefined {
  const s = shared[STATE]
  if (s?.closed)
    throw new Error(`${what} after the test file ended (a test that timed out still running?): refused, so that it leaves nothing behind`)
  return s
}

/**
 * What a file made that a worker keeps for its later files (test/helpers/harness.ts, a shared
 * harness): no longer the file's to end or remove. The run's teardown ends those (test/global-setup.ts).
 */
const OUTLIVES = Symbol.for('finctl.test.leftovers.outlives')
;(globalThis as { [OUTLIVES]?: (made: { child?: ChildProcess; folder?: string }) => void })[OUTLIVES] = (made) => {
  const s = shared[STATE]
  if (!s) return
  if (made.child) s.children.delete(made.child)
  if (made.folder) s.folders = s.folders.filter((f) => f !== made.folder)
}

if (!shared[PATCHED]) {
  shared[PATCHED] = true
  const fsAny = fs as unknown as Record<string, unknown>
  const mkdtempSync = fs.mkdtempSync
  fsAny.mkdtempSync = function (this: unknown, ...args: Parameters<typeof fs.mkdtempSync>) {
    const s = current('fs.mkdtempSync')
    const path = mkdtempSync.apply(this, args) as string
    s?.folders.push(path)
    return path
  }
  const mkdtemp = fs.mkdtemp as unknown as (...args: unknown[]) => void
  fsAny.mkdtemp = function (this: unknown, ...args: unknown[]) {
    const s = current('fs.mkdtemp')
    const callback = args.pop() as (err: Error | null, path: string) => void
    mkdtemp.call(this, ...args, (err: Error | null, path: string) => {
      if (!err) s?.folders.push(path)
      callback(err, path)
    })
  }
  const mkdtempPromise = fs.promises.mkdtemp
  ;(fs.promises as unknown as Record<string, unknown>).mkdtemp = async function (
    this: unknown,
    ...args: Parameters<typeof fs.promises.mkdtemp>
  ) {
    const s = current('fs.promises.mkdtemp')
    const path = (await mkdtempPromise.apply(this, args)) as string
    s?.folders.push(path)
    return path
  }
  // spawn, execFile, exec and fork all start their process through ChildProcess#spawn.
  const proto = ChildProcess.prototype as unknown as { spawn: (this: ChildProcess, ...args: unknown[]) => unknown }
  const spawn = proto.spawn
  proto.spawn = function (this: ChildProcess, ...args: unknown[]) {
    const s = current('starting a process')
    const result = spawn.apply(this, args)
    if (s) {
      s.children.add(this)
      this.once('exit', () => s.children.delete(this))
    }
    return result
  }
  syncBuiltinESMExports()
}

/** End a process that is still running, and wait (5 s at most) for it to go. */
function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    const timer = setTimeout(done, 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      done()
    })
    if (!child.kill('SIGKILL')) {
      clearTimeout(timer)
      done()
    }
  })
}

afterAll(async () => {
  state.closed = true
  await Promise.all([...state.children].map(end))
  for (const path of state.folders) fs.rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  state.folders = []
})
