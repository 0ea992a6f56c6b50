#!/usr/bin/env node
// The finctl executable: a thin launcher of the built bundle (dist/). Run `npm run build` after changing src/.
//
// It first checks the Node.js line, before the bundle (and better-sqlite3's native module) is
// loaded: on a Node.js that finctl does not support it prints one line and exits 9, instead of
// failing later with an assertion, an abort or a syntax error. Keep this file plain enough for any
// Node.js that can read an ES module to parse. The lines are those of package.json "engines".
import process from 'node:process'

const UNSUPPORTED_NODE = 9 // EXIT.unsupportedNode in src/cli/exit-codes.ts

const [major, minor, patch] = process.versions.node.split('.').map(Number)
const supported = major >= 26 || (major === 24 && minor >= 15) || (major === 22 && (minor > 22 || (minor === 22 && patch >= 2)))

if (!supported) {
  process.stderr.write(
    `error: finctl needs Node.js 22 (22.22.2 or newer), 24 (24.15 or newer) or 26, and this is Node.js ${process.versions.node} (${process.execPath}): ` +
      'install a supported line with nvm, fnm, volta or your package manager (`nvm install 26`); inside a clone of finctl, `npx finctl` and `npm run` use the Node.js 26 that `npm install` put in node_modules\n',
  )
  process.exitCode = UNSUPPORTED_NODE
} else {
  await enableCompileCache()
  const { main, realIO } = await import('../dist/cli.js')
  main(process.argv.slice(2), realIO()).then(
    (code) => {
      process.exitCode = code
    },
    (err) => {
      process.stderr.write(`error: internal error: ${err?.message ?? err}\n`)
      process.exitCode = 1
    },
  )
}

/**
 * V8's compiled code of the bundle, kept between runs in the user's cache folder (Node's
 * module.enableCompileCache): start-up parses less. Off when the folder cannot be written (Node
 * then says nothing) or when NODE_DISABLE_COMPILE_CACHE is set; NODE_COMPILE_CACHE picks another folder.
 */
async function enableCompileCache() {
  const { enableCompileCache: enable } = await import('node:module')
  if (typeof enable !== 'function') return
  const { homedir } = await import('node:os')
  const { join } = await import('node:path')
  const env = process.env
  let base
  if (process.platform === 'win32') base = env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
  else if (process.platform === 'darwin') base = join(homedir(), 'Library', 'Caches')
  else base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
  try {
    enable(join(base, 'finctl', 'compile-cache'))
  } catch {
    // a cache is an optimisation: never a reason to fail a command
  }
}
