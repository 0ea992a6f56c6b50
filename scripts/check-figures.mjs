#!/usr/bin/env node
// No comment in src/ or commands/ quotes a measured figure: a timing, a size observed, a
// speed-up or a before/after goes to docs/performance.md, and the comment keeps its reason and points
// there. Prints each comment line that quotes one and exits 1; `npm run check` runs it.
//
// A measured figure, in a comment: a range of a unit ("3.4-3.5 s", "238-239 MB"), or a number with a
// unit in the same clause as a word of measuring ("took 37 µs", "14.5 s against 17.1 s",
// "3.4 s -> 2.8 s", "70 ms at 1M rows", "peaked at 393 MB"). A setting is a single figure with no
// such word (a default of 30 s, a limit of 20 MiB, a wait from 2 ms to 100 ms): left alone.
//
// Nor does a comment cite an issue number ("#60 item 3"): it means nothing to a reader of the
// repository; the comment says the reason itself, and the history keeps the issue. Nor does it
// name a file of the repository that is not there (a dangling reference, after a rename).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`
/** Units, each after a number; a bare `s` and `min` only after a space ("6.4 s", not "2000s" or "429s"). */
const UNIT = String.raw`(?:\s?(?:ns|µs|us|ms|KB|MB|GB|KiB|MiB|GiB|bytes|rows\/s|req\/s)|\s(?:s|min)|x|%)(?![\w/])`
/** A range of a unit: "3.4-3.5 s", "73-77 -> 54-68 µs" (its second half), "0.9–1.2 s". */
const RANGE = new RegExp(String.raw`(?<![\w.])${NUMBER}\s?[-–]\s?${NUMBER}${UNIT}`, 'g')
/** A time under a millisecond: a cost measured, never a setting ("0.4 µs apiece", "about 60 µs"). */
const TINY = new RegExp(String.raw`(?<![\w.])${NUMBER}\s?(?:ns|µs|us)(?![\w/])`, 'g')
/** A number with its unit. */
const FIGURE = new RegExp(String.raw`(?<![\w.])${NUMBER}${UNIT}`, 'g')
/** Words of a measurement, in the clause of a figure. */
const MEASURING =
  /\b(?:took|against|vs\.?|versus|measured|faster|slower|peak(?:ed|s)?|median|p50|p95|p99|at \d[\d,.]*\s?(?:[kKM]\b|million|rows)|(?:in|of|on) an? [\d,]+-row)|->|→/i
/** What ends a clause: a comma (not in 1,000), a colon, a semicolon, a bracket, or a full stop (not a decimal point). */
const CLAUSE_END = /,(?!\d)|[;:()]|\.(?!\d)/g

/**
 * The comments of a TypeScript text, each as one string (its lines joined by a space) with the line
 * each character came from. Strings and template literals are skipped; a regular expression literal
 * is taken for code, which is what a `//` inside one would need (none here holds one).
 */
export function commentsOf(text) {
  const comments = []
  let line = 1
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]
    if (c === '\n') {
      line++
      i++
    } else if (c === "'" || c === '"' || c === '`') {
      i++
      while (i < n && text[i] !== c) {
        if (text[i] === '\\') i++
        else if (text[i] === '\n') {
          line++
          if (c !== '`') break
        }
        i++
      }
      i++
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const block = text[i + 1] === '*'
      const end = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i)
      const stop = end < 0 ? n : end
      let body = ''
      const lines = []
      for (const [k, raw] of text
        .slice(i + 2, stop)
        .split('\n')
        .entries()) {
        const part = `${raw.replace(/^\s*\*?/, '').trim()} `
        body += part
        for (let j = 0; j < part.length; j++) lines.push(line + k)
      }
      comments.push({ body, lines })
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++
      i = block ? stop + 2 : stop
    } else i++
  }
  return comments
}

/** Each measured figure of a file's comments: `path:line: the figure`. */
export function figuresIn(path, text) {
  const found = []
  for (const { body, lines } of commentsOf(text)) {
    /** Start -> the figure, kept once where a range holds a figure found again. */
    const at = new Map()
    const add = (index, figure) => {
      for (const [i, f] of at) if (index >= i && index < i + f.length) return
      at.set(index, figure)
    }
    for (const m of body.matchAll(RANGE)) add(m.index, m[0])
    for (const m of body.matchAll(TINY)) add(m.index, m[0])
    // Each clause holding a figure and a word of measuring: its figures.
    let start = 0
    for (const end of [...[...body.matchAll(CLAUSE_END)].map((m) => m.index), body.length]) {
      const clause = body.slice(start, end)
      if (MEASURING.test(clause)) for (const m of clause.matchAll(FIGURE)) add(start + m.index, m[0])
      start = end + 1
    }
    // One line a figure's line, its figures in order.
    const byLine = new Map()
    for (const [index, figure] of [...at].sort((a, b) => a[0] - b[0])) {
      const l = lines[index]
      byLine.set(l, [...(byLine.get(l) ?? []), `"${figure.trim()}"`])
    }
    for (const [l, figures] of byLine) found.push(`${path}:${l}: ${figures.join(', ')}`)
  }
  return found
}

/** An issue's number in a comment: "#60", "(#47 item 9)"; not an HTML entity ("&#65;"), a colour, code (`#2`) or another project's (nodejs/node#1). */
const ISSUE = /(?<![&\w`])#\d{1,5}(?![\w;])/g

/** Each issue number cited in a file's comments: `path:line: cites #N`. */
export function issuesIn(path, text) {
  const found = []
  for (const { body, lines } of commentsOf(text))
    for (const m of body.matchAll(ISSUE)) found.push(`${path}:${lines[m.index]}: cites issue ${m[0]}`)
  return found
}

/**
 * A file named in a comment: a path with a slash (`src/store/store.ts`, `docs/api.md`), or a bare
 * name of a kind the repository holds (`store.ts`, `README.md`). Bare `.js`/`.json` names are
 * left alone: they are mostly code (`c.req.json`) or other projects' (`Node.js`).
 */
const FILE =
  /(?<![\w@/.:-])((?:[\w.-]+\/)+[\w-][\w.-]*\.(?:ts|mts|mjs|cjs|js|md|json|sh|ya?ml)|[\w-][\w.-]*\.(?:ts|mts|mjs|cjs|md|sh))(?![\w/])/g

/**
 * Each file a comment names that the repository does not hold: `known.paths` (every file, relative
 * to the root), `known.ignored` (folders git ignores: outputs such as bench/results/).
 */
export function danglingIn(path, text, known) {
  const names = known.names ?? new Set([...known.paths].map((p) => p.split('/').pop()))
  known.names = names
  const dir = path.split('/').slice(0, -1)
  const found = []
  for (const { body, lines } of commentsOf(text))
    for (const m of body.matchAll(FILE)) {
      const t = m[1]
      if (!t.includes('/')) {
        if (!names.has(t)) found.push(`${path}:${lines[m.index]}: names ${t}, which is not in the repository`)
        continue
      }
      const parts = [...dir]
      for (const p of t.split('/'))
        if (p === '..') parts.pop()
        else if (p !== '.') parts.push(p)
      const local = parts.join('/')
      const there =
        known.paths.has(t) ||
        known.paths.has(local) ||
        [...known.paths].some((p) => p.endsWith(`/${t}`)) ||
        known.ignored.some((d) => t.startsWith(d))
      if (!there) found.push(`${path}:${lines[m.index]}: names ${t}, which is not in the repository`)
    }
  return found
}

/** Every measured figure and cited issue in the comments of `files` (path -> text); dangling names too, given `known`. */
export function checkFigures(files, known) {
  return [...files].flatMap(([path, text]) => [
    ...figuresIn(path, text),
    ...issuesIn(path, text),
    ...(known ? danglingIn(path, text, known) : []),
  ])
}

/** The repository's files (outside node_modules, .git and what git ignores) and the ignored folders. */
function repositoryFiles(root) {
  const ignore = (existsSync(join(root, '.gitignore')) ? readFileSync(join(root, '.gitignore'), 'utf8') : '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.endsWith('/') && !l.includes('*'))
  const paths = new Set(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)))
      .filter((p) => !/^(node_modules|\.git)\//.test(p) && !ignore.some((d) => p.startsWith(d))),
  )
  return { paths, ignored: ignore }
}

function sourceFiles(root, dir) {
  if (!existsSync(join(root, dir))) return []
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The project's checkout, or another given as the argument (the tests check a copy).
  const root = process.argv[2] ? resolve(process.argv[2]) : ROOT
  const files = new Map(
    [...sourceFiles(root, 'src'), ...sourceFiles(root, 'commands')].map((f) => [f, readFileSync(join(root, f), 'utf8')]),
  )
  const known = repositoryFiles(root)
  const problems = checkFigures(files, known)
  // The scripts and the bench name files in their comments too; their figures are their own business.
  for (const f of [...sourceFiles(root, 'scripts'), ...sourceFiles(root, 'bench')])
    problems.push(...danglingIn(f, readFileSync(join(root, f), 'utf8'), known))
  for (const p of problems) process.stderr.write(`${p}\n`)
  if (problems.length) {
    process.stderr.write(
      `check-figures: ${problems.length} comment line(s) to change: a measured figure goes to docs/performance.md (the comment points there); an issue number goes (the comment says the reason); a file named is one that is there\n`,
    )
    process.exit(1)
  }
  process.stdout.write(`check-figures: ${files.size} modules, no measured figure, issue number or missing file in a comment\n`)
}
