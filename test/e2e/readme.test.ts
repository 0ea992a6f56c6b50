/**
 * End-to-end: the README works in order, as written. Every `sh` block of README.md runs, line by
 * line, in one bash session in a fresh home, with `finctl` and `npx finctl` the built CLI and the
 * clone's `examples/` beside it. A line may announce its exit code (`# exits N: why`); any other
 * non-zero exit fails the test, naming the line. `npm` is a no-op here (the clone is installed and
 * this test is part of `npm test`). `$ACCOUNT` and `$RULE` are set, as the README says, from
 * `finctl accounts list` and `finctl rules list` the first time a line uses them. A line ending in
 * `&` (finctl serve) runs in the background on a free port and is stopped at the end. A block after
 * a `<!-- not run: why -->` comment is left out.
 */
import { spawn } from 'node:child_process'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, ROOT, Sandbox } from '../helpers/cli.js'

interface Line {
  number: number
  text: string
  /** The exit code the README announces, else 0. */
  exit: number
}

/** The runnable lines of the `sh` blocks, with their line numbers in README.md. */
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

describe('README.md, run in order as written', () => {
  const sb = new Sandbox('readme')
  afterAll(() => sb.cleanup())

  it('parses the blocks: lines, announced exits, blocks left out', () => {
    const lines = readmeLines(
      'text\n```sh\nfinctl a   # note\nfinctl b   # exits 2: why\n```\n<!-- not run: no server -->\n```sh\nfinctl c\n```\n',
    )
    expect(lines).toEqual([
      { number: 3, text: 'finctl a', exit: 0 },
      { number: 4, text: 'finctl b', exit: 2 },
    ])
  })

  it('every line exits as the README says', async () => {
    const lines = readmeLines(readFileSync(join(ROOT, 'README.md'), 'utf8'))
    expect(lines.length).toBeGreaterThan(25)
    const work = join(sb.dir, 'work')
    cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true })
    const port = await freePort()
    const script: string[] = [
      'set -u',
      // A line that hangs fails (exit 124) instead of holding the test to its timeout.
      `finctl() { timeout 120 "${process.execPath}" "${BIN}" "$@"; }`,
      'npx() { if [ "$1" = finctl ]; then shift; finctl "$@"; else echo "npx $1: not run here" >&2; fi; }',
      'npm() { :; }',
      `first_id() { finctl "$@" --json | "${process.execPath}" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s)[0]?.id ?? ""))'; }`,
      'export -f finctl',
    ]
    for (const line of lines) {
      let text = line.text.replace(/\b8080\b/g, String(port))
      for (const [name, list] of [
        ['ACCOUNT', 'accounts list'],
        ['RULE', 'rules list'],
      ] as const) {
        if (text.includes(`$${name}`)) script.push(`: "\${${name}:=$(first_id ${list})}"`)
      }
      if (/&\s*$/.test(text)) {
        // A server: started in the background, waited for, stopped when the script ends.
        // Started without the function, so that $! is the server itself.
        text = text.replace(/&\s*$/, '').replace(/^finctl /, `"${process.execPath}" "${BIN}" `)
        script.push(`${text} 2> serve.log & SERVER=$!; trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT`)
        script.push(
          `for i in $(seq 100); do grep -q "listening on" serve.log && break; sleep 0.1; done; grep -q "listening on" serve.log || { echo "README.md:${line.number}: the server did not start" >&2; cat serve.log >&2; exit 1; }`,
        )
        continue
      }
      script.push(`echo "+ ${line.number}" >&2`)
      script.push(
        `{ ${text}; } < /dev/null; code=$?; if [ $code -ne ${line.exit} ]; then echo "README.md:${line.number}: exit $code, the README says ${line.exit}: ${text.replace(/["`$\\]/g, '\\$&')}" >&2; exit 1; fi`,
      )
    }
    writeFileSync(join(work, 'readme.sh'), `${script.join('\n')}\n`)
    const r = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn('bash', ['readme.sh'], {
        cwd: work,
        env: { ...sb.env(), PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d) => (stdout += d))
      child.stderr.on('data', (d) => (stderr += d))
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    const failure = r.stderr.split('\n').filter((l) => l.startsWith('README.md:'))
    expect(failure, r.stderr.slice(-3000)).toEqual([])
    expect(r.code, r.stderr.slice(-3000)).toBe(0)
    // Every line ran: the last one announced itself.
    expect(r.stderr).toContain(`+ ${lines.filter((l) => !/&\s*$/.test(l.text)).at(-1)?.number}`)
  }, 300_000)
})
