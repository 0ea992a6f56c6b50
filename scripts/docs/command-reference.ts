/**
 * The command reference (docs/commands/) written from the command tree itself, as gh's manual is
 * from its cobra commands: usage, description, arguments, flags with their help and the examples
 * each command's help carries. `npm run docs:commands` writes it; test/scripts/command-reference
 * fails when the committed pages differ from the tree, so the reference cannot drift.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { type Command, Help } from 'commander'
import { HELP_TOPICS } from '../../commands/help-topics.js'
import { registerAll } from '../../commands/index.js'
import type { IO } from '../../src/cli/io.js'
import { createProgram } from '../../src/cli/program.js'
import type { Runner } from '../../src/cli/runner.js'

export const REFERENCE_DIR = 'docs/commands'
const INDEX = 'README.md'
const GENERATED = '<!-- Written by `npm run docs:commands` from the command tree (commands/root.ts): edit the commands, not this file. -->'

/** The program as `finctl` builds it, with every command registered and nothing run. */
export async function commandTree(): Promise<Command> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const io: IO = {
    stdout: sink,
    stderr: sink,
    stdin: process.stdin,
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
    now: () => new Date(0),
  }
  const program = createProgram(io)
  const run: Runner = () => async () => {}
  await registerAll(program, run)
  return program
}

/** The reference's pages, file name -> text: an index with the global flags, and one page per top-level command. */
export function renderCommandReference(program: Command): Map<string, string> {
  const help = new Help()
  const pages = new Map<string, string>()
  const tops = subcommands(help, program)
  pages.set(INDEX, renderIndex(help, program, tops))
  for (const cmd of tops) pages.set(pageName(cmd), `${GENERATED}\n\n${renderCommand(help, cmd, 1)}`)
  return pages
}

function pageName(cmd: Command): string {
  return `finctl-${cmd.name()}.md`
}

/** The commands a user can type under `cmd`: commander's implicit `help [command]` and hidden ones left out. */
function subcommands(help: Help, cmd: Command): Command[] {
  return help.visibleCommands(cmd).filter((c) => cmd.commands.includes(c))
}

function fullName(cmd: Command): string {
  const names: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

function renderIndex(help: Help, program: Command, tops: Command[]): string {
  const out = [
    GENERATED,
    '',
    '# finctl command reference',
    '',
    md(program.description()),
    '',
    fence(help.commandUsage(program)),
    '',
    '## Global options',
    '',
    'Every command takes these, before or after its own words.',
    '',
    ...options(help, program, true),
    '',
    '## Commands',
    '',
    ...tops.map((c) => `- [\`${fullName(c)}\`](${pageName(c)}): ${md(c.description())}`),
    '',
    '## Help topics',
  ]
  for (const topic of HELP_TOPICS) out.push('', `### finctl help ${topic.name}`, '', md(topic.summary), '', fence(topic.text().trimEnd()))
  const after = helpText(program)
  if (after) out.push('', '## Notes and examples', '', fence(after))
  return `${out.join('\n')}\n`
}

function renderCommand(help: Help, cmd: Command, depth: number): string {
  const out = [`${'#'.repeat(depth)} ${fullName(cmd)}`, '', md(cmd.description()), '', fence(help.commandUsage(cmd))]
  const aliases = cmd.aliases()
  if (aliases.length > 0) out.push('', `Also: ${aliases.map((a) => `\`${fullName(cmd.parent!)} ${a}\``).join(', ')}.`)
  const parentDefault = (cmd.parent as unknown as { _defaultCommandName?: string | null } | null)?._defaultCommandName
  if (parentDefault === cmd.name()) out.push('', `\`${fullName(cmd.parent!)}\` alone runs it.`)
  const args = help.visibleArguments(cmd)
  if (args.length > 0) {
    out.push('', 'Arguments:', '')
    for (const a of args) out.push(`- \`${help.argumentTerm(a)}\`: ${md(help.argumentDescription(a))}`)
  }
  const own = options(help, cmd, false)
  if (own.length > 0) out.push('', 'Options:', '', ...own)
  const subs = subcommands(help, cmd)
  if (subs.length > 0) {
    out.push('', 'Commands:', '')
    for (const s of subs) out.push(`- [\`${fullName(s)}\`](#${anchor(fullName(s))}): ${md(s.description())}`)
  }
  const after = helpText(cmd)
  if (after) out.push('', fence(after))
  let text = `${out.join('\n')}\n`
  for (const s of subs) text += `\n${renderCommand(help, s, depth + 1)}`
  return text
}

/** A command's own flags as list items; `-h, --help` only on the index, where it stands for every command. */
function options(help: Help, cmd: Command, withHelp: boolean): string[] {
  return help
    .visibleOptions(cmd)
    .filter((o) => withHelp || o.long !== '--help')
    .map((o) => `- \`${help.optionTerm(o)}\`: ${md(help.optionDescription(o))}`)
}

/** The text a command's `--help` prints after the generated part (examples, notes), captured from its listeners. */
function helpText(cmd: Command): string {
  let text = ''
  // commander's Command is an EventEmitter; its types leave that out.
  ;(cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => (text += s) })
  return text.replace(/^\n+/, '').trimEnd()
}

function fence(text: string): string {
  return `\`\`\`text\n${text}\n\`\`\``
}

/** Help text as Markdown prose: a `<` would open an HTML tag, a `*` emphasis. */
function md(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/</g, '\\<').replace(/\*/g, '\\*')
}

/** GitHub's heading anchor of `finctl tx import`: lower case, spaces to dashes, punctuation dropped. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-')
}

/** The reference as committed: file name -> text of every page in `dir`. */
export function committedReference(dir: string): Map<string, string> {
  const pages = new Map<string, string>()
  if (!existsSync(dir)) return pages
  for (const name of readdirSync(dir)) if (name.endsWith('.md')) pages.set(name, readFileSync(join(dir, name), 'utf8'))
  return pages
}

/**
 * How the `committed` pages differ from `pages`: one line per page that is missing, differs (with
 * its first differing line) or belongs to no command. Empty when the committed reference is current.
 */
export function referenceDifferences(pages: Map<string, string>, committed: Map<string, string>): string[] {
  const out: string[] = []
  for (const [name, text] of pages) {
    const old = committed.get(name)
    if (old === undefined) out.push(`${name}: missing`)
    else if (old !== text) {
      const a = old.split('\n')
      const b = text.split('\n')
      const at = b.findIndex((line, n) => line !== a[n])
      out.push(`${name}:${at + 1}: the tree gives ${JSON.stringify(b[at])}, the page has ${JSON.stringify(a[at] ?? '')}`)
    }
  }
  for (const name of committed.keys()) if (!pages.has(name)) out.push(`${name}: no such command`)
  return out
}
