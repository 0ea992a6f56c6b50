// Bundles the CLI into dist/ with esbuild: one small entry chunk (enough for --version), and
// chunks loaded on demand for the program, the client and the server core. Native and optional
// drivers stay external. Beside it, for a Tab: dist/completion-tree.json, the command tree as the
// completion answers from it, and dist/complete.cjs, which answers from that file alone (the
// launcher loads it instead of the program). The bundle is built beside dist/ and swapped in, so a
// running finctl (a server, a test) never sees a half-written or missing dist/.
import { build } from 'esbuild'
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'

/**
 * conf imports ajv (JSON-schema validation) and semver (its migrations) at the top, but uses them
 * only with its `schema` and `migrations` options, which finctl does not pass. Leaving them out of
 * the bundle saves about 350 KB to parse on every start. If anyone adds those options, the stubs
 * throw at once rather than skipping validation silently.
 */
const confWithoutSchemas = {
  name: 'conf-without-schemas',
  setup(b) {
    b.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) =>
      /[\\/]node_modules[\\/]conf[\\/]/.test(args.importer) ? { path: args.path, namespace: 'conf-stub' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'conf-stub' }, (args) => {
      const fail = `throw new Error('finctl bundles conf without ${args.path}: conf schema and migrations options are not supported')`
      const contents =
        args.path === 'ajv/dist/2020.js'
          ? `export class Ajv2020 { constructor() { ${fail} } }`
          : `const stub = new Proxy(function () { ${fail} }, { get(_t, key) { if (key === 'default') return stub; ${fail} }, apply() { ${fail} } }); export default stub`
      return { contents, loader: 'js' }
    })
  },
}

/**
 * zod's classic API re-exports all of its 60-odd locales as `z.locales`, about 300 KB of source
 * that every start would parse. finctl speaks English (zod registers `en` itself): the bundle keeps
 * `z.locales.en` only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: new URL('../locales/en.js', `file://${args.importer}`).pathname, namespace: 'zod-locales' }
        : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)}`,
      loader: 'js',
      resolveDir: '/',
    }))
  },
}

/**
 * commander imports node:child_process when it loads, for executable subcommands, which finctl
 * does not have; loading it costs every command about 2 ms. Load it when it is used.
 */
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const eager = "import childProcess from 'node:child_process';"
      if (!source.includes(eager)) throw new Error(`commander-lazy-child-process: ${args.path} no longer has: ${eager}`)
      const lazy = "const childProcess = { spawn: (...a) => process.getBuiltinModule('node:child_process').spawn(...a) };"
      return { contents: source.replace(eager, lazy), loader: 'js' }
    })
  },
}

const root = new URL('..', import.meta.url)
const out = new URL(`dist.build-${process.pid}`, root)
const dist = new URL('dist', root)
const old = new URL(`dist.old-${process.pid}`, root)

try {
  await build({
    entryPoints: {
      cli: new URL('commands/main.ts', root).pathname,
      'completion-tree': new URL('commands/completion-tree-of-program.ts', root).pathname,
    },
    outdir: out.pathname,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    // exceljs (xlsx exports) is loaded from node_modules as it is: Node warns about the deprecated
    // Buffer() of its zip library only in code outside node_modules, which a bundled copy would be.
    // jq-wasm (--jq) is one 1.3 MB file with its WebAssembly inside: loaded as it is, only for --jq.
    // @napi-rs/keyring holds a native binary: loaded from node_modules, only when a secret is in the keyring.
    external: ['better-sqlite3', 'pg', 'pg-native', 'exceljs', 'jq-wasm', '@napi-rs/keyring'],
    // Some CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __finctlCreateRequire } from 'node:module'; const require = __finctlCreateRequire(import.meta.url);",
    },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    legalComments: 'none',
    plugins: [confWithoutSchemas, zodEnglishOnly, commanderLazyChildProcess],
    minify: !process.env.FINCTL_NO_MINIFY,
  })
  await build({
    entryPoints: [new URL('src/cli/completion-cached.ts', root).pathname],
    outfile: new URL('complete.cjs', `${out.href}/`).pathname,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    legalComments: 'none',
    minify: !process.env.FINCTL_NO_MINIFY,
  })
  const treeModule = new URL('completion-tree.js', `${out.href}/`)
  const { programCompletionTree } = await import(treeModule.href)
  writeFileSync(new URL('completion-tree.json', `${out.href}/`), `${JSON.stringify(await programCompletionTree())}\n`)
  if (existsSync(dist)) renameSync(dist, old)
  renameSync(out, dist)
} finally {
  rmSync(out, { recursive: true, force: true })
  rmSync(old, { recursive: true, force: true })
}
