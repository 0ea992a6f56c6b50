#!/usr/bin/env node
// `npm run link`: a `finctl` on the PATH that runs this clone's build on this clone's Node.js 26
// (the `node` devDependency), without npx in front of every call. `npm run link -- --remove` takes it
// away; `--dir DIR` (or FINCTL_LINK_DIR) puts it elsewhere than npm's global bin folder.
// Only a file this script wrote (it carries MARKER) is ever replaced or removed.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { homedir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const MARKER = 'finctl link of a clone (npm run link)'
const clone = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const windows = process.platform === 'win32'

function fail(message) {
  process.stderr.write(`error: ${message}\n`)
  process.exit(1)
}

let args
try {
  args = parseArgs({ options: { dir: { type: 'string' }, remove: { type: 'boolean' } } }).values
} catch (err) {
  process.stderr.write(`error: ${err.message}\nusage: npm run link [-- --dir DIR] [-- --remove]\n`)
  process.exit(2)
}

// npm sets npm_config_global_prefix in its scripts; its bin folder is where `npm install -g` puts commands.
const prefix = process.env.npm_config_global_prefix
const defaultDir = prefix ? (windows ? prefix : join(prefix, 'bin')) : join(homedir(), '.local', 'bin')
const dir = resolve(args.dir ?? process.env.FINCTL_LINK_DIR ?? defaultDir)
const file = join(dir, windows ? 'finctl.cmd' : 'finctl')
const ours = () => existsSync(file) && readFileSync(file, 'utf8').includes(MARKER)

if (args.remove) {
  if (!existsSync(file)) {
    process.stderr.write(`no finctl link in ${dir}\n`)
    process.exit(0)
  }
  if (!ours()) fail(`${file} was not written by npm run link: left as it is`)
  rmSync(file)
  process.stderr.write(`removed ${file}\n`)
  process.exit(0)
}

const nodeBin = join(clone, 'node_modules', 'node', 'bin', windows ? 'node.exe' : 'node')
const node = existsSync(nodeBin) ? nodeBin : process.execPath
const launcher = join(clone, 'bin', 'finctl.cjs')
if (!existsSync(join(clone, 'dist', 'cli.cjs'))) fail('dist/ is not built: run `npm install` (or `npm run build`) first')
if (existsSync(file) && !ours()) fail(`${file} exists and was not written by npm run link: remove it, or give --dir DIR`)

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`
const text = windows
  ? `@echo off\r\nrem ${MARKER}\r\n"${node}" "${launcher}" %*\r\n`
  : `#!/bin/sh\n# ${MARKER}: ${clone}\nexec ${quote(node)} ${quote(launcher)} "$@"\n`
try {
  mkdirSync(dir, { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, text, { mode: 0o755 })
  chmodSync(temp, 0o755)
  renameSync(temp, file)
} catch (err) {
  fail(`cannot write ${file}: ${err.code === 'EACCES' ? 'permission denied (give --dir DIR, e.g. ~/.local/bin)' : err.message}`)
}
process.stderr.write(`finctl -> ${launcher} on ${node}\nwrote ${file}\n`)
const onPath = (process.env.PATH ?? '').split(delimiter).some((p) => p && resolve(p) === dir)
if (!onPath) process.stderr.write(`note: ${dir} is not on your PATH: add it, or run ${file}\n`)
