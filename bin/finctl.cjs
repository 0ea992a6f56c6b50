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
// 4. Node's compile cache is turned on, the bundle's imports of its own chunks are resolved without
//    asking the file system, then the bundle runs the command.
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
  enableCompileCache()
  resolveChunksDirectly()
  import('../dist/cli.js')
    .then(({ main, realIO }) => main(argv, realIO()))
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
 * V8's compiled code of the bundle, kept between runs in the user's cache folder (Node's
 * module.enableCompileCache): later starts compile less. Off when the folder cannot be written (Node
 * then says nothing) or when NODE_DISABLE_COMPILE_CACHE is set; NODE_COMPILE_CACHE picks another folder.
 */
function enableCompileCache() {
  const { enableCompileCache: enable } = require('node:module')
  if (typeof enable !== 'function') return
  const { homedir } = require('node:os')
  const { join } = require('node:path')
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

/**
 * The bundle's chunks import each other by relative paths ("./chunk-AB12.js"), dozens of imports per
 * command. Node's resolver checks each against the file system (stat, realpath, the nearest
 * package.json for the module's type): a large share of a short command's start (docs/performance.md,
 * "Start-up"). Resolved here from the importing chunk's URL instead, as ES modules; anything else,
 * and every import on another thread, goes to Node's resolver.
 */
function resolveChunksDirectly() {
  const { registerHooks } = require('node:module')
  if (typeof registerHooks !== 'function') return
  const { realpathSync } = require('node:fs')
  const { join } = require('node:path')
  const { pathToFileURL } = require('node:url')
  let dist
  try {
    // The URL Node gives the bundle's entry (it resolves symbolic links), so that a chunk has one URL.
    dist = `${pathToFileURL(realpathSync(join(__dirname, '..', 'dist'))).href}/`
  } catch {
    return
  }
  registerHooks({
    resolve(specifier, context, next) {
      const parent = context.parentURL
      if (parent?.startsWith(dist) && specifier.startsWith('./') && specifier.endsWith('.js')) {
        const url = new URL(specifier, parent).href
        if (url.startsWith(dist)) return { url, format: 'module', shortCircuit: true }
      }
      return next(specifier, context)
    },
  })
}
