// Bundles the CLI into dist/ with rolldown: one small entry chunk (enough for --version), and
// chunks loaded on demand for the program, each command group, the client and the server core (see
// CHUNKS). Native and optional drivers stay external. Beside it, for a Tab: dist/completion-tree.json,
// the command tree as the completion answers from it, and dist/complete.cjs, which answers from that
// file alone (the launcher loads it instead of the program). The bundle is built beside dist/ and
// swapped in, so a running finctl (a server, a test) never sees a half-written or missing dist/.
// With --if-changed it does nothing when dist/ was built from the same inputs (the tests' setup).
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { rolldown } from 'rolldown'

/**
 * conf imports ajv (JSON-schema validation) and semver (its migrations) at the top, but uses them
 * only with its `schema` and `migrations` options, which finctl does not pass. Leaving them out of
 * the bundle saves about 350 KB to parse on every start. If anyone adds those options, the stubs
 * throw at once rather than skipping validation silently.
 */
const CONF_STUB = '\0conf-stub:'
const confWithoutSchemas = {
  name: 'conf-without-schemas',
  resolveId(source, importer) {
    if (/^(ajv\/dist\/2020\.js|ajv-formats|semver)$/.test(source) && /[\\/]node_modules[\\/]conf[\\/]/.test(importer ?? ''))
      return CONF_STUB + source
  },
  load(id) {
    if (!id.startsWith(CONF_STUB)) return
    const path = id.slice(CONF_STUB.length)
    const fail = `throw new Error('finctl bundles conf without ${path}: conf schema and migrations options are not supported')`
    return path === 'ajv/dist/2020.js'
      ? `export class Ajv2020 { constructor() { ${fail} } }`
      : `const stub = new Proxy(function () { ${fail} }, { get(_t, key) { if (key === 'default') return stub; ${fail} }, apply() { ${fail} } }); export default stub`
  },
}

/**
 * zod's classic API re-exports all of its 60-odd locales as `z.locales`, about 300 KB of source
 * that every start would parse. finctl speaks English (zod registers `en` itself): the bundle keeps
 * `z.locales.en` only.
 */
const ZOD_LOCALES = '\0zod-locales:'
const zodEnglishOnly = {
  name: 'zod-english-only',
  resolveId(source, importer) {
    if (source === '../locales/index.js' && /[\\/]node_modules[\\/]zod[\\/]/.test(importer ?? ''))
      return ZOD_LOCALES + new URL('../locales/en.js', `file://${importer}`).pathname
  },
  load(id) {
    if (id.startsWith(ZOD_LOCALES)) return `export { default as en } from ${JSON.stringify(id.slice(ZOD_LOCALES.length))}`
  },
}

/**
 * commander imports node:child_process when it loads, for executable subcommands, which finctl
 * does not have; loading it costs every command about 2 ms. Load it when it is used.
 */
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  async load(id) {
    if (!/[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return
    const code = await readFile(id, 'utf8')
    const eager = "import childProcess from 'node:child_process';"
    if (!code.includes(eager)) throw new Error(`commander-lazy-child-process: ${id} no longer has: ${eager}`)
    const lazy = "const childProcess = { spawn: (...a) => process.getBuiltinModule('node:child_process').spawn(...a) };"
    return code.replace(eager, lazy)
  },
}

/**
 * The chunks of a command's start (`chunkGroups`). Each chunk is one module for Node's loader to
 * resolve, read, compile, link and run, and automatic splitting made dozens of them for an embedded
 * command, most of them a few KB (docs/performance.md, "Start-up"). In order, each taking its
 * modules before the next may:
 * - base: the entry's imports (commands/main.ts), and what of the program the client, the core or
 *   the import's thread also use (src/kernel/ mostly), so that none of those loads the program;
 * - client: the typed client (src/client/client.ts), for every target;
 * - program: the command tree and its program (commands/root.ts), with what two command groups or
 *   more use of src/ that loads nothing of the core (src/kernel/ aside: it imports nothing);
 * - zod, kysely, hono: the core's libraries, each whole, loaded by whoever uses them (the import's
 *   thread checks rows with zod, `finctl verify` reads with kysely);
 * - core: the embedded transport and the server core (src/embedded/embedded.ts), with what both
 *   dialects' stores use (the migrations), so that PostgreSQL never loads SQLite's driver;
 * - sqlite: the rest of the SQLite store.
 * What the command line itself may load of the core and the store (by static or dynamic imports,
 * short of the core's entries) stays out of those two: loading it would load them whole. It, the
 * command groups, the route groups, the workers' own modules and whatever else loads later are
 * chunked automatically, by what loads them.
 */
const LIBRARIES = [
  ['zod', ['zod']],
  ['kysely', ['kysely']],
  ['hono', ['hono', '@hono/zod-openapi', '@hono/zod-validator', '@asteasolutions/zod-to-openapi', 'openapi3-ts']],
]
const GROUPS = ['base', 'client', 'program', ...LIBRARIES.map(([name]) => name), 'core', 'sqlite']

function chunkGroups(root) {
  const at = (path) => new URL(path, root).pathname
  const graph = new Map()
  /** The modules `starts` import, and those they import, ...: with `dynamic`, by import() too, short of `stop`. */
  const reach = (starts, { dynamic = false, stop = new Set() } = {}) => {
    const seen = new Set()
    for (const stack = [...starts]; stack.length > 0; ) {
      const id = stack.pop()
      if (seen.has(id) || stop.has(id) || !graph.has(id)) continue
      seen.add(id)
      stack.push(...graph.get(id).importedIds, ...(dynamic ? graph.get(id).dynamicallyImportedIds : []))
    }
    return seen
  }
  /** The modules under src/ that the static imports of at least two of `entries` reach, and that reach none of `apart`. */
  const sharedBy = (entries, apart) => {
    const count = new Map()
    for (const e of entries) for (const id of reach([e])) count.set(id, (count.get(id) ?? 0) + 1)
    return [...count]
      .filter(([id, n]) => n >= 2 && id.startsWith(at('src/')) && ![...reach([id])].some((x) => apart.has(x)))
      .map(([id]) => id)
  }
  const assign = () => {
    const entry = reach([at('commands/main.ts')])
    entry.delete(at('commands/main.ts'))
    const client = reach([at('src/client/client.ts')])
    const postgres = reach([at('src/store/postgres/store.ts')])
    const sqlite = reach([at('src/store/sqlite/store.ts')])
    const core = reach([at('src/embedded/embedded.ts'), ...[...sqlite].filter((id) => postgres.has(id))])
    const heavy = new Set([...core, ...sqlite].filter((id) => !id.startsWith(at('src/kernel/'))))
    const program = reach([at('commands/root.ts'), ...sharedBy(graph.get(at('commands/index.ts'))?.dynamicallyImportedIds ?? [], heavy)])
    const gates = new Set(['src/embedded/embedded.ts', 'src/embedded/embedded-thread.ts', 'src/server.ts'].map(at))
    const cli = reach([at('commands/main.ts')], { dynamic: true, stop: gates })
    const threads = reach([...gates, at('src/jobs/import/run.ts')], { dynamic: true })
    for (const [name, set] of [
      ['program', program],
      ['core', core],
      ['sqlite', sqlite],
    ])
      if (set.size < 2) throw new Error(`chunk groups: no modules for the ${name} chunk (did its root move?)`)
    const owner = new Map()
    const put = (name, ids, when = () => true) => {
      for (const id of ids) if (!owner.has(id) && when(id)) owner.set(id, name)
    }
    const library = (id) => /[\\/]node_modules[\\/]((@[^\\/]+[\\/])?[^\\/]+)/.exec(id)?.[1]
    put('base', entry)
    put('base', program, (id) => client.has(id) || threads.has(id))
    put('client', client)
    put('program', program)
    for (const [name, packages] of LIBRARIES) put(name, [...core, ...sqlite], (id) => packages.includes(library(id)))
    put('core', core, (id) => !cli.has(id))
    put('sqlite', sqlite, (id) => !cli.has(id))
    return owner
  }
  let owner
  return {
    plugin: {
      name: 'chunk-groups',
      moduleParsed(info) {
        graph.set(info.id, info)
      },
    },
    groups: GROUPS.map((name, i) => ({
      name,
      priority: GROUPS.length - i,
      // The core's and the store's imports from the command line's modules stay where those are.
      includeDependenciesRecursively: name !== 'core' && name !== 'sqlite',
      test: (id) => {
        owner ??= assign()
        return owner.get(id) === name
      },
    })),
  }
}

/**
 * The modules that are their own thread or child process (they hand their own URL to
 * src/worker-entry.ts): each is a chunk that runs it when loaded as is. dist/threads.json names
 * that chunk for each, for the tests, whose threads load it instead of the TypeScript sources
 * (test/global-setup.ts, FINCTL_TEST_THREADS in src/worker-entry.ts).
 */
function threadModules(root) {
  const entry = new URL('src/worker-entry.ts', root).pathname
  const ids = new Set()
  return {
    ids,
    plugin: {
      name: 'thread-modules',
      moduleParsed(info) {
        if (info.id !== entry && info.importedIds.includes(entry)) ids.add(info.id)
      },
    },
  }
}

const root = new URL('..', import.meta.url)
const out = new URL(`dist.build-${process.pid}`, root)
const dist = new URL('dist', root)
const old = new URL(`dist.old-${process.pid}`, root)
const minify = !process.env.FINCTL_NO_MINIFY

/** What the bundle is made of: the sources, this script, the locked packages and the minify setting. */
function inputsDigest() {
  const top = root.pathname
  const files = ['src', 'commands']
    .flatMap((dir) => readdirSync(join(top, dir), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => relative(top, join(e.parentPath, e.name)))
    .concat(['scripts/build.mjs', 'package-lock.json', 'package.json'])
    .sort()
  const hash = createHash('sha256').update(`minify=${minify}\n`)
  for (const f of files) hash.update(`${f}\n`).update(readFileSync(join(top, f)))
  return hash.digest('hex')
}
const INPUTS_FILE = 'build-inputs.sha256'
const digest = inputsDigest()
const built = (() => {
  try {
    return readFileSync(new URL(`dist/${INPUTS_FILE}`, root), 'utf8').trim()
  } catch {
    return undefined
  }
})()
if (process.argv.includes('--if-changed') && built === digest) {
  process.stdout.write('build: dist/ is current (its inputs are unchanged)\n')
  process.exit(0)
}

try {
  const chunks = chunkGroups(root)
  const threads = threadModules(root)
  const bundle = await rolldown({
    input: {
      cli: new URL('commands/main.ts', root).pathname,
      'completion-tree': new URL('commands/completion-tree-of-program.ts', root).pathname,
    },
    cwd: root.pathname,
    platform: 'node',
    // A chunk may export more than its entry module: needed for the groups that leave their
    // dependencies to the automatic splitting (chunkGroups).
    preserveEntrySignatures: 'allow-extension',
    // exceljs (xlsx exports) is loaded from node_modules as it is: Node warns about the deprecated
    // Buffer() of its zip library only in code outside node_modules, which a bundled copy would be.
    // jq-wasm (--jq) is one 1.3 MB file with its WebAssembly inside: loaded as it is, only for --jq.
    // @napi-rs/keyring holds a native binary: loaded from node_modules, only when a secret is in the keyring.
    // xmllint-wasm (export check of a SAF-T file against its XSD) starts a worker from its own files.
    external: ['better-sqlite3', 'pg', 'pg-native', 'exceljs', 'jq-wasm', '@napi-rs/keyring', 'xmllint-wasm'],
    transform: { target: 'node22' },
    plugins: [confWithoutSchemas, zodEnglishOnly, commanderLazyChildProcess, chunks.plugin, threads.plugin],
    logLevel: 'warn',
    onLog(level, log, handler) {
      // A module both imported and loaded with import() stays where the static import puts it: as meant.
      if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return
      // unpdf asks import.meta where pdfjs keeps its fonts, inside a try: text is read without them.
      if (log.code === 'EMPTY_IMPORT_META' && /[\\/]node_modules[\\/]unpdf[\\/]/.test(log.id ?? '')) return
      handler(level, log)
    },
  })
  const { output } = await bundle.write({
    dir: out.pathname,
    // CommonJS, so that the launcher can compile each chunk itself and keep V8's code of the
    // functions a command ran, not only of the top level (bin/code-cache.cjs).
    format: 'cjs',
    strict: true,
    // An import() in a chunk the launcher compiled would need vm's experimental dynamic-import
    // loader (and its warning): externals and builtins are required instead.
    dynamicImportInCjs: false,
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
    sourcemap: true,
    comments: { legal: false },
    minify,
    codeSplitting: { groups: chunks.groups },
  })
  await bundle.close()
  const threadChunks = {}
  for (const id of [...threads.ids].sort()) {
    const chunk = output.find((c) => c.type === 'chunk' && c.moduleIds.includes(id))
    if (!chunk) throw new Error(`threads.json: no chunk holds ${id}`)
    threadChunks[relative(root.pathname, id)] = chunk.fileName
  }
  writeFileSync(new URL('threads.json', `${out.href}/`), `${JSON.stringify(threadChunks, null, 2)}\n`)

  const complete = await rolldown({
    input: new URL('src/cli/completion-cached.ts', root).pathname,
    cwd: root.pathname,
    platform: 'node',
    transform: { target: 'node22' },
    logLevel: 'warn',
  })
  await complete.write({ file: new URL('complete.cjs', `${out.href}/`).pathname, format: 'cjs', comments: { legal: false }, minify })
  await complete.close()

  const treeModule = new URL('completion-tree.cjs', `${out.href}/`)
  const { programCompletionTree } = await import(treeModule.href)
  writeFileSync(new URL('completion-tree.json', `${out.href}/`), `${JSON.stringify(await programCompletionTree())}\n`)
  writeFileSync(new URL(INPUTS_FILE, `${out.href}/`), `${digest}\n`)
  if (existsSync(dist)) renameSync(dist, old)
  renameSync(out, dist)
} finally {
  rmSync(out, { recursive: true, force: true })
  rmSync(old, { recursive: true, force: true })
}
