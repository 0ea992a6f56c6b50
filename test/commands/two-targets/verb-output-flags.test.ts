/**
 * A verb's own options win after the verb, whatever global options stand before it: each verb that
 * writes a file of its own with `-o FILE` / `--output FILE` (its hidden `--output-file`) is run
 * with each global option of the program before its name (`finctl --profile B close pack M -o x.zip`),
 * embedded and through `finctl serve`, and must write the file. The verbs and the global options
 * are read from the command tree: a new one is covered, or this fails naming it.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Command } from 'commander'
import { registerAll } from '../../../commands/index.js'
import { createProgram } from '../../../src/cli/program.js'
import { previousMonth } from '../../../src/domain/accounts/period-lock.js'
import { minimalPdf } from '../../helpers/document-files.js'
import { memoryIO } from '../../helpers/in-process-cli.js'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))

async function tree(): Promise<Command> {
  const program = createProgram(memoryIO({}).io)
  await registerAll(program, () => async () => {})
  return program
}

/** Every command path under the program whose `-o` is a file (a hidden --output-file). */
function fileVerbs(program: Command): string[] {
  const out: string[] = []
  const walk = (c: Command, path: string[]) => {
    for (const s of c.commands) {
      const p = [...path, s.name()]
      if (s.options.some((o) => o.long === '--output-file' && o.hidden)) out.push(p.join(' '))
      walk(s, p)
    }
  }
  walk(program, [])
  return out.sort()
}

describe.each(TARGET_KINDS)('a verb keeps its -o after any global option (%s)', (kind) => {
  let t: Target
  let statement: string
  let doc: string

  beforeAll(async () => {
    t = await openTarget(kind, 'verbo')
    const acct = (await t.json(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const csv = t.sb.path('s.csv')
    writeFileSync(csv, `Date,Description,Amount\n${M}-03,Paper,-12.00\n`)
    statement = (await t.json(['statements', 'upload', csv, '--account', acct, '--json'])).id
    const pdf = t.sb.path('r.pdf')
    writeFileSync(pdf, minimalPdf('Receipt 12.00'))
    doc = (await t.json(['docs', 'add', pdf, '--no-auto-link', '--json']))[0].id
    await t.ok(['close', M, '--force', '--reason', 'verb output flags'])
  })
  afterAll(() => t?.close())

  it('each global option before each verb with -o: the verb writes its file', async () => {
    const program = await tree()
    const verbs: Record<string, string[]> = {
      'close pack': ['close', 'pack', M],
      'docs get': ['docs', 'get', doc],
      export: ['export', '--format', 'csv'],
      'export map suggest': ['export', 'map', 'suggest', '--chart', 'skr03'],
      'statements file': ['statements', 'file', statement],
    }
    expect(fileVerbs(program)).toEqual(Object.keys(verbs).sort())
    const profile = t.sb.profiles().profiles[t.profile] as { api_key?: string; access_token?: string }
    // A value for each global option that keeps the command on the same target.
    const values: Record<string, string[] | undefined> = {
      '--profile': ['--profile', t.profile],
      '--base-url': t.baseUrl ? ['--base-url', t.baseUrl] : undefined,
      '--api-key': profile.api_key ? ['--api-key', profile.api_key] : undefined,
      '--token': profile.access_token ? ['--token', profile.access_token] : undefined,
      '--output': ['--output', 'json'],
      '--json': ['--json'],
      '--jq': ['--jq', '.'],
      '--jq-timeout': ['--jq', '.', '--jq-timeout', '5'],
      '--template': ['--template', '{{.}}'],
      '--locale': ['--locale', 'de-DE'],
      // Prints the version and runs nothing.
      '--version': undefined,
    }
    const flagsOf = (long: string): string[] | undefined =>
      long in values ? values[long] : program.options.find((o) => o.long === long)?.required ? undefined : [long]
    const globals = program.options.map((o) => o.long!).filter((l) => flagsOf(l) !== undefined)
    expect(globals).toEqual(expect.arrayContaining(['--profile', '--output', '--json', '--quiet', '--yes', '--no-input']))
    let n = 0
    for (const [name, args] of Object.entries(verbs))
      for (const g of globals)
        for (const o of ['-o', '--output']) {
          const file = t.sb.path(`out-${n++}`)
          const r = await t.run([...flagsOf(g)!, ...args, o, file])
          expect(r.code, `finctl ${flagsOf(g)!.join(' ')} ${name} ${o} FILE:\n${r.stderr}`).toBe(0)
          expect(existsSync(file) && statSync(file).size > 0, `${g} ${name} ${o}: ${file} written`).toBe(true)
        }
  }, 360_000)
})
