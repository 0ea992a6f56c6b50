// V8's compiled code of the bundle's chunks, kept between runs (docs/performance.md, "Start-up").
//
// Node's compile cache keeps the code V8 made when it compiled a module: its top level only, since
// V8 compiles a function when it is first called. Every run then compiled again the functions it
// called (zod's, commander's, the routes'). Here the launcher compiles each chunk of dist/ itself
// (vm.Script, as Node's CommonJS loader would) with the code kept of earlier runs, and at exit keeps
// a chunk's code again when this command had not run with it yet: made after the command ran, the
// code holds every function compiled so far, those of the earlier commands (read from the entry)
// and this one's. Keeping costs a few milliseconds, once per command and chunk.
'use strict'

const Module = require('node:module')
const vm = require('node:vm')
const fs = require('node:fs')
const { basename, dirname, join } = require('node:path')

/** A chunk's name with rolldown's hash of its content ("zod-De02DsEm.cjs"). */
const HASHED = /^(.+)-([A-Za-z0-9_-]{8})\.cjs$/
/** A kept entry, "name#hash.length.v8": the chunk's name, its content's hash, the source's length. */
const ENTRY = /^(.+)#[^#]+\.v8$/
/** The index: for each entry, the commands it holds the code of. */
const INDEX = 'index.json'
/** Past this many commands an entry is kept as it is. */
const MAX_COMMANDS = 64
/** The folders of other installs or Node.js versions go when none of their entries changed for this long. */
const UNUSED_MS = 30 * 24 * 3600 * 1000

/**
 * Compile the CommonJS modules under `dist` (a real path, ending with a separator) with the code kept
 * under `root`, in a folder of this Node.js and of this install (two installs of finctl, a clone and
 * a global one, would otherwise take each other's entries for stale ones). `command` names the
 * command ("tx list"); with `renew` false it only writes entries that are missing (`finctl serve`,
 * which runs every route once: its code in the entries would slow every short command's start).
 * A folder that cannot be read or written only costs the saving.
 */
function useCodeCache(dist, root, command, renew = true) {
  const install = require('node:crypto').createHash('sha256').update(dist).digest('base64url').slice(0, 12)
  const folder = join(root, `${process.version}-${process.arch}`, install)
  const index = readIndex(folder)
  const renewed = []
  const compile = Module.prototype._compile
  Module.prototype._compile = function (content, filename, format) {
    if (format === 'module' || !filename.startsWith(dist)) return compile.call(this, content, filename, format)
    const name = entryName(filename, content)
    let cachedData
    try {
      cachedData = fs.readFileSync(join(folder, name))
    } catch {
      // not kept yet
    }
    const script = new vm.Script(Module.wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    })
    // Refused by V8 (another Node.js, other flags): made again from this run alone.
    const held = cachedData === undefined || script.cachedDataRejected || !Array.isArray(index[name]) ? [] : index[name]
    if ((held.length === 0 || renew) && !held.includes(command) && held.length < MAX_COMMANDS)
      renewed.push({ script, name, commands: [...held, command], filename })
    const wrapper = script.runInThisContext({ displayErrors: true })
    return wrapper.call(this.exports, this.exports, requireOf(this), this, filename, dirname(filename))
  }
  // A chunk's require of another ("./zod-De02DsEm.cjs") needs no look at the file system.
  const resolve = Module._resolveFilename
  Module._resolveFilename = function (request, parent, ...rest) {
    if (parent?.filename?.startsWith(dist) && request.startsWith('./') && request.endsWith('.cjs'))
      return join(dirname(parent.filename), request)
    return resolve.call(this, request, parent, ...rest)
  }
  process.once('exit', () => {
    if (renewed.length > 0) keep(renewed, index, folder, root)
  })
}

/** A module's `require`, as Node's loader makes it: the module is the parent of what it loads. */
function requireOf(mod) {
  const require = (id) => mod.require(id)
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  require.main = process.mainModule
  require.cache = Module._cache
  return require
}

/** The entry of a chunk: rolldown's hash names its content; another module's (cli.cjs) is hashed here. */
function entryName(filename, content) {
  const name = basename(filename)
  const hashed = HASHED.exec(name)
  if (hashed) return `${hashed[1]}#${hashed[2]}.${content.length}.v8`
  const hash = require('node:crypto').createHash('sha256').update(content).digest('base64url').slice(0, 16)
  return `${name.replace(/\.cjs$/, '')}#${hash}.${content.length}.v8`
}

/** The chunk file an entry of a hashed chunk was made of ("schemas#YpM7i0Mu.3050.v8": "schemas-YpM7i0Mu.cjs"). */
function chunkFile(entry) {
  const m = /^(.+)#([^#.]+)\.\d+\.v8$/.exec(entry)
  return m ? `${m[1]}-${m[2]}.cjs` : ''
}

function readIndex(folder) {
  try {
    const index = JSON.parse(fs.readFileSync(join(folder, INDEX), 'utf8'))
    if (index && typeof index === 'object' && !Array.isArray(index)) return index
  } catch {
    // none yet, or unreadable: entries are then renewed once
  }
  return {}
}

/**
 * Write each renewed entry and the index (each readable by this user only, each replaced whole),
 * remove the entries of earlier builds of the same chunks, and the folders of installs and Node.js
 * versions unused for a while.
 */
function keep(renewed, index, folder, root) {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
    // Before any code is serialized: a folder that cannot be written would cost that at every run.
    fs.accessSync(folder, fs.constants.W_OK)
    const chunks = new Set()
    const built = new Set()
    for (const { script, name, commands, filename } of renewed) {
      writeWhole(join(folder, name), script.createCachedData())
      index[name] = commands
      chunks.add(ENTRY.exec(name)?.[1])
      if (HASHED.test(basename(filename))) built.add(dirname(filename))
    }
    // Several chunks share a name ("schemas-...": one per aggregate); the entry of one whose file is
    // still built is another chunk's, not an earlier build's. Removing it made two commands run one
    // after the other compile and keep those chunks again at every run.
    const present = new Set()
    for (const dir of built) for (const file of fs.readdirSync(dir)) present.add(file)
    const current = new Set(renewed.map(({ name }) => name))
    for (const name of fs.readdirSync(folder)) {
      if (current.has(name) || !chunks.has(ENTRY.exec(name)?.[1])) continue
      if (present.has(chunkFile(name))) continue
      fs.rmSync(join(folder, name), { force: true })
      delete index[name]
    }
    writeWhole(join(folder, INDEX), JSON.stringify(index))
    forgetUnused(root, folder)
  } catch {
    // a cache is an optimisation: never a reason to fail a command
  }
}

function forgetUnused(root, current) {
  const now = Date.now()
  for (const node of fs.readdirSync(root)) {
    for (const install of fs.readdirSync(join(root, node))) {
      const folder = join(root, node, install)
      if (folder === current) continue
      let changed
      try {
        changed = fs.statSync(join(folder, INDEX)).mtimeMs
      } catch {
        changed = fs.statSync(folder).mtimeMs
      }
      if (now - changed > UNUSED_MS) fs.rmSync(folder, { recursive: true, force: true })
    }
    if (fs.readdirSync(join(root, node)).length === 0) fs.rmSync(join(root, node), { recursive: true, force: true })
  }
}

function writeWhole(file, data) {
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, data, { mode: 0o600 })
  fs.renameSync(temp, file)
}

module.exports = { useCodeCache }
