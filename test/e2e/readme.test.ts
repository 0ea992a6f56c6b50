/**
 * End-to-end: the README and every page of the manual (docs/) work in order, as written. Each
 * page's `sh` blocks run, line by line, in one bash session in a fresh home of their own, with
 * `finctl` and `npx finctl` the built CLI and the clone's `examples/` beside it; a page of docs/
 * starts from the home the README's set-up block (`npx finctl init --demo`) made, as its reader
 * has: the block runs once, in a home of its own, and each page gets a copy of it. A line may
 * announce its exit code (`# exits N: why`); any other non-zero exit fails the test, naming the
 * page and line. `npm` is a no-op here (the clone is installed and this test is part of `npm
 * test`). `$ACCOUNT`, `$RULE` and `$TX` are set, as the manual says, from `finctl accounts list`,
 * `finctl rules list` and `finctl tx list` the first time a line uses them. A line ending in `&`
 * (finctl serve) runs in the background on a free port and is stopped at the end. A block after a
 * `<!-- not run: why -->` comment is left out; a shell block fenced otherwise than `sh` is
 * refused, so none is skipped by accident.
 */
import { spawn } from 'node:child_process'
import { chmodSync, cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, ROOT, Sandbox } from '../helpers/cli.js'

interface Line {
  number: number
  text: string
  /** The exit code the page announces, else 0. */
  exit: number
}

/** The runnable lines of the `sh` blocks, with their line numbers in the page. */
export function readmeLines(markdown: string): Line[] {
  const out: Line[] = []
  const lines = markdown.split('\n')
  let inBlock = false
  let skip = false
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]
    if (!inBlock && /^```sh\s*$/.test(l)) {
      inBlock = true
      skip = /^<!-- not run\b/.test(lines[i - 1] ?? '')
      continue
    }
    if (inBlock && /^```\s*$/.test(l)) {
      inBlock = false
      continue
    }
    if (!inBlock || skip || !l.trim()) continue
    const comment = / {2,}# (.*)$/.exec(l)
    const announced = comment && /^exits (\d+)\b/.exec(comment[1])
    out.push({ number: i + 1, text: comment ? l.slice(0, comment.index).trimEnd() : l.trim(), exit: announced ? Number(announced[1]) : 0 })
  }
  return out
}

/** Shell blocks fenced so that they would not run: `bash`, `shell`, `console`, ... */
export function otherShellFences(markdown: string): number[] {
  const out: number[] = []
  markdown.split('\n').forEach((l, i) => {
    if (/^```(bash|shell|console|zsh|sh-session)\s*$/.test(l)) out.push(i + 1)
  })
  return out
}

/** README.md, then every page under docs/ (the generated command reference has no shell blocks). */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    )
  return ['README.md', ...walk('docs').sort()]
}

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8')

/** The README's first block: the set-up every other page assumes. */
function setupLines(): Line[] {
  const md = read('README.md')
  const end = md.indexOf('\n```\n', md.indexOf('```sh\n'))
  return readmeLines(md.slice(0, end + 5))
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** A bash script that runs `lines` of `page` in order, each checked against its announced exit. */
function script(page: string, lines: Line[], port: number): string {
  const out: string[] = [
    'set -u',
    // A line that hangs fails (exit 124) instead of holding the test to its timeout.
    `finctl() { timeout 120 "${process.execPath}" "${BIN}" "$@"; }`,
    'npx() { if [ "$1" = finctl ]; then shift; finctl "$@"; else echo "npx $1: not run here" >&2; fi; }',
    'npm() { :; }',
    `first_id() { finctl "$@" --json | "${process.execPath}" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s)[0]?.id ?? ""))'; }`,
    'export -f finctl',
  ]
  for (const line of lines) {
    const where = `${page}:${line.number}`
    let text = line.text.replace(/\b8080\b/g, String(port))
    for (const [name, list] of [
      ['ACCOUNT', 'accounts list'],
      ['RULE', 'rules list'],
      ['TX', 'tx list'],
    ] as const) {
      if (text.includes(`$${name}`)) out.push(`: "\${${name}:=$(first_id ${list})}"`)
    }
    if (/&\s*$/.test(text)) {
      // A server: started in the background, waited for (up to 60 s: a busy machine), stopped when the script ends.
      // Started without the function, so that $! is the server itself.
      text = text.replace(/&\s*$/, '').replace(/^finctl /, `"${process.execPath}" "${BIN}" `)
      out.push(`${text} 2> serve.log & SERVER=$!; trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT`)
      out.push(
        `for i in $(seq 600); do grep -q "listening on" serve.log && break; sleep 0.1; done; grep -q "listening on" serve.log || { echo "${where}: the server did not start" >&2; cat serve.log >&2; exit 1; }`,
      )
      continue
    }
    out.push(`echo "+ ${where}" >&2`)
    out.push(
      `{ ${text}; } < /dev/null; code=$?; if [ $code -ne ${line.exit} ]; then echo "${where}: exit $code, the page says ${line.exit}: ${text.replace(/["`$\\]/g, '\\$&')}" >&2; exit 1; fi`,
    )
  }
  return `${out.join('\n')}\n`
}

/** The home the README's set-up block made (its config folder: profiles and database), made once for the pages that start from it. */
let setUp: Promise<Sandbox> | undefined
const setUpHome = () => {
  setUp ??= (async () => {
    const sb = new Sandbox('readme-setup')
    await runLines(sb, 'README.md', setupLines())
    return sb
  })()
  return setUp
}
afterAll(async () => (await setUp?.catch(() => undefined))?.cleanup())

/** A copy of a config folder, its modes too (0700, 0600: `finctl doctor` checks them; Node 22's cpSync does not keep them). */
function copyHome(from: string, to: string): void {
  cpSync(from, to, { recursive: true })
  for (const name of ['', ...readdirSync(from)]) chmodSync(join(to, name), statSync(join(from, name)).mode & 0o777)
}

async function runPage(page: string): Promise<void> {
  const lines = readmeLines(read(page))
  const sb = new Sandbox('readme')
  try {
    if (page !== 'README.md') copyHome((await setUpHome()).configDir, sb.configDir)
    await runLines(sb, page, lines)
  } finally {
    sb.cleanup()
  }
}

/** Run `lines` of `page` in `sb`'s home, each checked against the exit it announces. */
async function runLines(sb: Sandbox, page: string, lines: Line[]): Promise<void> {
  const work = join(sb.dir, 'work')
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true })
  writeFileSync(join(work, 'page.sh'), script(page, lines, await freePort()))
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('bash', ['page.sh'], {
      cwd: work,
      env: { ...sb.env(), PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({ code, stderr }))
  })
  const failure = r.stderr.split('\n').filter((l) => /^[\w./-]+\.md:\d+: /.test(l))
  expect(failure, r.stderr.slice(-3000)).toEqual([])
  expect(r.code, r.stderr.slice(-3000)).toBe(0)
  // Every line ran: the last one announced itself.
  const last = lines.filter((l) => !/&\s*$/.test(l.text)).at(-1)
  if (last) expect(r.stderr).toContain(`+ ${page}:${last.number}`)
}

describe('the README and the manual, run in order as written', () => {
  it('parses the blocks: lines, announced exits, blocks left out', () => {
    const lines = readmeLines(
      'text\n```sh\nfinctl a   # note\nfinctl b   # exits 2: why\n```\n<!-- not run: no server -->\n```sh\nfinctl c\n```\n',
    )
    expect(lines).toEqual([
      { number: 3, text: 'finctl a', exit: 0 },
      { number: 4, text: 'finctl b', exit: 2 },
    ])
    expect(otherShellFences('```bash\nls\n```\n```sh\nls\n```\n```text\nls\n```\n')).toEqual([1])
  })

  it('every page fences its shell blocks as sh; the README sets up with init --demo and shows ten commands', () => {
    const wrong = pages().flatMap((p) => otherShellFences(read(p)).map((n) => `${p}:${n}`))
    expect(wrong).toEqual([])
    expect(setupLines().map((l) => l.text)).toContain('npm install && npx finctl init --demo')
    expect(readmeLines(read('README.md')).length - setupLines().length).toBeGreaterThanOrEqual(10)
  })

  // Pages without a runnable line (the decisions, the contracts, the command reference) have no test here.
  for (const page of pages().filter((p) => readmeLines(read(p)).length > 0)) {
    it(`${page}: every line exits as the page says`, () => runPage(page), 300_000)
  }
})
