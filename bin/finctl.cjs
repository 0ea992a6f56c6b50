#!/usr/bin/env node
// The finctl executable: a thin launcher of the built bundle (dist/). Run `npm run build` after changing src/.
//
// Plain CommonJS, so that any Node.js parses it, and so that `finctl --version` is answered without
// starting Node's ES module loader. In order:
// 1. the Node.js line: on one that finctl does not support (package.json "engines") it prints one
//    line and exits 9 before the bundle, and better-sqlite3's native module, is loaded;
// 2. `--version` alone is answered from package.json;
// 3. a shell's completion request on Tab (`__complete`) is answered from the command tree the build
//    wrote (dist/complete.cjs, dist/completion-tree.json), without loading the program;
// 4. Node's compile cache is turned on, and the bundle's chunks are compiled with the code V8 kept of
//    them in an earlier run (code-cache.cjs); the process list is given the command line without its
//    secrets (src/cli/process-title.ts), then the bundle runs the command.
'use strict'

const UNSUPPORTED_NODE = 9 // EXIT.unsupportedNode in src/cli/exit-codes.ts

const [major, minor, patch] = process.versions.node.split('.').map(Number)
const supported = major >= 26 || (major === 24 && minor >= 15) || (major === 22 && (minor > 22 || (minor === 22 && patch >= 2)))
const argv = process.argv.slice(2)

if (!supported) {
  process.stderr.write(
    `error: finctl needs Node.js 22 (22.22.2 or newer), 24 (24.15 or newer) or 26, and this is Node.js ${process.versions.node} (${process.execPath}): ` +
      'install a supported line with nvm, fnm, volta or your package manager (`nvm install 26`); inside a clone of finctl, `npx finctl` and `npm run` use the Node.js 26 that `npm install` put in node_modules\n',
  )
  process.exitCode = UNSUPPORTED_NODE
} else if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.on('error', () => {}) // `finctl --version | true`: nobody reads it, nothing to say
  process.stdout.write(`${require('../package.json').version}\n`)
} else if (argv[0] === '__complete' && completeFromCache(argv.slice(1))) {
  // answered
} else {
  keepCompiledCode()
  Promise.resolve()
    .then(() => {
      const { main, realIO, hideSecretsFromProcessList } = require('../dist/cli.cjs')
      hideSecretsFromProcessList?.() // absent from a dist/ built before it: that build runs as before
      return main(argv, realIO())
    })
    .then(
      (code) => {
        process.exitCode = code
      },
      (err) => {
        process.stderr.write(`error: internal error: ${err?.message || err}\n`)
        process.exitCode = 1
      },
    )
}

/** Answers `finctl __complete WORDS...` from dist/completion-tree.json; false when it cannot (not built). */
function completeFromCache(words) {
  const { join } = require('node:path')
  let cached
  try {
    cached = require('../dist/complete.cjs')
  } catch {
    return false
  }
  process.stdout.on('error', () => {}) // the shell stopped reading: nothing to say
  const code = cached.completeCached(join(__dirname, '..', 'dist'), words, process.env, process.stdout)
  if (code === undefined) return false
  process.exitCode = code
  return true
}

/**
 * V8's compiled code, kept between runs in the user's cache folder: Node's compile cache (for
 * node_modules' modules, such as better-sqlite3's) and the launcher's own for the bundle's chunks
 * (code-cache.cjs). Off when NODE_DISABLE_COMPILE_CACHE is set; NODE_COMPILE_CACHE picks another
 * folder for Node's. A folder that cannot be written costs the saving, never the command.
 */
function keepCompiledCode() {
  const env = process.env
  if (env.NODE_DISABLE_COMPILE_CACHE) return
  const { homedir } = require('node:os')
  const { join, sep } = require('node:path')
  let base
  if (process.platform === 'win32') base = env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
  else if (process.platform === 'darwin') base = join(homedir(), 'Library', 'Caches')
  else base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
  try {
    require('node:module').enableCompileCache(join(base, 'finctl', 'compile-cache'))
  } catch {
    // a cache is an optimisation: never a reason to fail a command
  }
  let dist
  try {
    // Node's CommonJS loader names a module by its real path (symbolic links resolved).
    dist = require('node:fs').realpathSync(join(__dirname, '..', 'dist')) + sep
  } catch {
    return
  }
  // The command ("tx list"), roughly: its first two words of letters, so that a file or a port is
  // not one (a flag's value taken for a word costs one more saving, no more).
  const command = argv
    .filter((a) => /^[a-z][a-z-]*$/.test(a))
    .slice(0, 2)
    .join(' ')
  require('./code-cache.cjs').useCodeCache(dist, join(base, 'finctl', 'code-cache'), command, !/^serve( |$)/.test(command))
}
