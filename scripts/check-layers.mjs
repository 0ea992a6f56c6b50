#!/usr/bin/env node
// The layers of ARCHITECTURE.md, checked: every import of src/ and commands/ (static, dynamic,
// type-only, re-exports) must point at its own floor or one below, within the domain at its own
// aggregate or one below, and no module may reach itself through its imports. Also the house's
// rules of size and place: no module over MAX_LINES lines, no domain module naming a store
// dialect (it asks `store.sql` and `store.writes`), and no domain module importing kysely's `sql`
// (raw SQL is written in src/store only). Prints each violation and exits 1; `npm run check` runs
// it and CI runs that.
//
// Why a script of ours: dependency-cruiser, the well-kept tool for this, needs the TypeScript
// compiler's JavaScript API, which TypeScript 7 does not have yet, or @swc/core, whose platform
// packages this project's registry does not all carry (npm ci then refuses the lock file). Our
// imports are plain ES module specifiers, so reading them needs no parser.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** From the bottom floor up (ARCHITECTURE.md): a module may import its own floor and those below. */
export const FLOORS = [
  ['kernel', /^src\/(kernel\/|version\.ts$|worker-entry\.ts$)/],
  ['import and store', /^src\/(import|store)\//],
  ['domain', /^src\/domain\//],
  ['api and client', /^src\/(api|client)\//],
  ['core', /^src\/core\.ts$/],
  ['embedded transport', /^src\/embedded\//],
  ['jobs', /^src\/jobs\//],
  ['cli, mcp and server', /^src\/(cli\/|mcp\/|server\.ts$)/],
  ['commands', /^commands\//],
]

/**
 * The domain's aggregates from the bottom up (ARCHITECTURE.md): one may import its own folder and
 * those below. At the bottom, the modules at the domain's root that aggregates share; at the top,
 * housekeeping, which sweeps the records of several.
 */
export const AGGREGATES = [
  ['shared', /^src\/domain\/(?!housekeeping\.ts$)[^/]+\.ts$/],
  ['api-keys', /^src\/domain\/api-keys\//],
  ['users', /^src\/domain\/users\//],
  ['accounts', /^src\/domain\/accounts\//],
  ['rates', /^src\/domain\/rates\//],
  ['categorization', /^src\/domain\/categorization\//],
  ['transactions', /^src\/domain\/transactions\//],
  ['documents', /^src\/domain\/documents\//],
  ['statements', /^src\/domain\/statements\//],
  ['imports', /^src\/domain\/imports\//],
  ['reports', /^src\/domain\/reports\//],
  ['exports', /^src\/domain\/exports\//],
  ['closing', /^src\/domain\/closing\//],
  ['webhooks', /^src\/domain\/webhooks\//],
  ['approvals', /^src\/domain\/approvals\//],
  ['budgets', /^src\/domain\/budgets\//],
  ['recurring', /^src\/domain\/recurring\//],
  ['housekeeping', /^src\/domain\/housekeeping\.ts$/],
]

const floorOf = (file) => FLOORS.findIndex(([, re]) => re.test(file))
const aggregateOf = (file) => AGGREGATES.findIndex(([, re]) => re.test(file))
const DOMAIN = FLOORS.findIndex(([name]) => name === 'domain')

function sourceFiles(root, dir) {
  const out = []
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path))
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path)
  }
  return out
}

const SPECIFIER =
  /(?:^|[^\w.])(?:import|export)\s*(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** The project files a module imports, each with the line it is imported on. */
export function importsOf(file, text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '')
  const out = []
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2]
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts')
    const at = m.index + m[0].search(/import|export/)
    out.push({ target, line: code.slice(0, at).split('\n').length })
  }
  return out
}

/** The longest a module of src/ or commands/ may be (ARCHITECTURE.md). */
export const MAX_LINES = 450

/** A store dialect named in code: `store.dialect`, or a dialect's name as a string. */
const DIALECT = /\.dialect\b|['"`](?:sqlite|postgres)['"`]/

/** An import or re-export from kysely: its `type` keyword, if any, and what it names. */
const FROM_KYSELY = /(?:^|[^\w.])(?:import|export)\s+(type\s+)?([\w*{}\s,]+?)\s+from\s+['"]kysely['"]/g

/**
 * The lines of `code` importing kysely's raw-SQL tag `sql` as a value (or kysely whole, `* as k`,
 * which holds it). Type-only imports (`import type`, `{ type Kysely }`) name no value.
 */
export function rawSqlImports(code) {
  const out = []
  for (const m of code.matchAll(FROM_KYSELY)) {
    if (m[1]) continue
    const clause = m[2]
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? ''
    const values = named
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith('type '))
      .map((s) => s.split(/\s+as\s+/)[0])
    if (values.includes('sql') || /\*\s*as\s/.test(clause))
      out.push(code.slice(0, m.index + m[0].search(/import|export/)).split('\n').length)
  }
  return out
}

/** An import or re-export of a project module, its `type` keyword if any and what it names; or a dynamic import. */
const PROJECT_IMPORT =
  /(?:^|[^\w.])(?:import|export)\s+(type\s+)?([\w*{}\s,]+?)\s+from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/**
 * The project modules `code` imports as values (not `import type`, not only `{ type X }`), each with
 * its line: the client may read the routes' definitions as types alone (ARCHITECTURE.md, "A route").
 */
export function valueImports(file, code) {
  const out = []
  for (const m of code.matchAll(PROJECT_IMPORT)) {
    if (m[1]) continue
    const named = m[2] !== undefined ? /\{([^}]*)\}/.exec(m[2]) : null
    if (named && m[2].trim().startsWith('{') && named[1].split(',').every((s) => !s.trim() || s.trim().startsWith('type '))) continue
    const spec = m[3] ?? m[4]
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts')
    out.push({ target, line: code.slice(0, m.index + m[0].search(/import|export/)).split('\n').length })
  }
  return out
}

/** What of src/api the client may load (strings only); the rest it imports as types. */
const CLIENT_MAY_LOAD = /^src\/api\/paths\.ts$/

/** Code without its comments (line numbers kept), for the rules that read code, not words. */
function codeOf(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:\\])\/\/.*$/gm, '$1')
}

/** Every violation of the layers in `files` (path -> text): upward imports and circles, size, dialects and raw SQL in the domain. */
export function checkLayers(files) {
  const problems = []
  for (const [file, text] of files) {
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines, over ${MAX_LINES}: split it where a concept ends`)
    if (floorOf(file) === DOMAIN) {
      const code = codeOf(text)
      for (const [n, line] of code.split('\n').entries())
        if (DIALECT.test(line)) problems.push(`${file}:${n + 1}: names a store dialect: ask store.sql or store.writes instead`)
      for (const line of rawSqlImports(code))
        problems.push(`${file}:${line}: imports sql from kysely: raw SQL goes in src/store (fragments.ts, queries.ts), called by name`)
    }
    if (file.startsWith('src/client/'))
      for (const { target, line } of valueImports(file, codeOf(text)))
        if (target.startsWith('src/api/') && !CLIENT_MAY_LOAD.test(target))
          problems.push(
            `${file}:${line}: loads ${target}: the client imports the routes' definitions as types (import type) and their paths from src/api/paths.ts, so that it loads no schema`,
          )
  }
  const graph = new Map()
  for (const [file, text] of files) {
    const from = floorOf(file)
    if (from === -1) problems.push(`${file}: on no floor of ARCHITECTURE.md (add its folder to FLOORS in scripts/check-layers.mjs)`)
    const fromAggregate = from === DOMAIN ? aggregateOf(file) : -1
    if (from === DOMAIN && fromAggregate === -1)
      problems.push(`${file}: in no aggregate of ARCHITECTURE.md (add its folder to AGGREGATES in scripts/check-layers.mjs)`)
    const edges = importsOf(file, text).filter((i) => files.has(i.target))
    graph.set(
      file,
      edges.map((e) => e.target),
    )
    for (const { target, line } of edges) {
      const to = floorOf(target)
      if (from !== -1 && to > from)
        problems.push(
          `${file}:${line}: imports ${target}, a floor above (${FLOORS[from][0]} may import only its own floor and those below)`,
        )
      else if (fromAggregate !== -1 && to === DOMAIN && aggregateOf(target) > fromAggregate)
        problems.push(
          `${file}:${line}: imports ${target}, an aggregate above (${AGGREGATES[fromAggregate][0]} may import only its own aggregate and those below)`,
        )
    }
  }
  for (const circle of circles(graph)) problems.push(`import circle: ${[...circle, circle[0]].join(' -> ')}`)
  return problems
}

/** The strongly connected components of more than one module (Tarjan), each as a list of files. */
function circles(graph) {
  let index = 0
  const stack = []
  const info = new Map()
  const found = []
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true })
    index++
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w)
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low)
      } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index)
    }
    if (info.get(v).low === info.get(v).index) {
      const component = []
      let w
      do {
        w = stack.pop()
        info.get(w).onStack = false
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.reverse())
    }
  }
  for (const v of graph.keys()) if (!info.has(v)) visit(v)
  return found
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The project's checkout, or another given as the argument (the tests check a copy).
  const root = process.argv[2] ? resolve(process.argv[2]) : ROOT
  const files = new Map(
    [...sourceFiles(root, 'src'), ...sourceFiles(root, 'commands')].map((f) => [f, readFileSync(join(root, f), 'utf8')]),
  )
  const problems = checkLayers(files)
  for (const p of problems) process.stderr.write(`${p}\n`)
  const edges = [...files].reduce((n, [f, t]) => n + importsOf(f, t).length, 0)
  if (problems.length) {
    process.stderr.write(`check-layers: ${problems.length} problem(s) in ${files.size} modules (ARCHITECTURE.md says where things go)\n`)
    process.exit(1)
  }
  process.stdout.write(
    `check-layers: ${files.size} modules, ${edges} imports: no circle, no upward import (floors and domain aggregates)\n`,
  )
}
