/**
 * Aliases of command lines, as gh's: `finctl alias set co 'close'` makes `finctl co 2026-10` run
 * `finctl close 2026-10`. Kept in the profile file (profiles.ts: 0600), expanded before the command
 * line is parsed; `$1`..`$9` in an expansion take the words after the alias, the rest are appended.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../kernel/errors.js'
import { configDir } from './config-dir.js'

interface ProfileFileAliases {
  aliases?: Record<string, unknown>
}

/** The words of an expansion as a shell splits them: '...' as it is, "..." and \\ escaping. */
export function splitWords(text: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | "'" | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote === "'") {
      if (c === "'") quote = undefined
      else word += c
    } else if (c === '\\' && i + 1 < text.length && (quote === undefined || /["\\$`]/.test(text[i + 1]))) {
      word = (word ?? '') + text[++i]
    } else if (quote === '"') {
      if (c === '"') quote = undefined
      else word += c
    } else if (c === "'" || c === '"') {
      quote = c
      word ??= ''
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (quote) throw new AppError('usage', `the expansion has a ${quote} that is not closed`)
  if (word !== undefined) words.push(word)
  return words
}

/** The command line an alias stands for: `$N` replaced by the Nth word after it, words not taken appended. */
export function expandWords(expansion: string, args: string[]): string[] {
  const taken = new Set<number>()
  const words = splitWords(expansion).map((w) =>
    w.replace(/\$([1-9])/g, (_, n: string) => {
      taken.add(Number(n) - 1)
      return args[Number(n) - 1] ?? ''
    }),
  )
  return [...words, ...args.filter((_, i) => !taken.has(i))]
}

/**
 * `argv` with the alias at `at` (the command's word) expanded. The profile file is read only for a
 * word that is no command, so a command line of finctl's own costs nothing more.
 */
export function expandAlias(argv: string[], at: number | undefined, names: ReadonlySet<string>, env: NodeJS.ProcessEnv): string[] {
  if (at === undefined || names.has(argv[at]) || argv[at].startsWith('__')) return argv
  let expansion: unknown
  try {
    // Read as it is, without conf: a typo of a command makes no config folder.
    expansion = (JSON.parse(readFileSync(join(configDir(env), 'profiles.json'), 'utf8')) as ProfileFileAliases).aliases?.[argv[at]]
  } catch {
    return argv // no file, or one the command that needs it reports
  }
  if (typeof expansion !== 'string') return argv
  return [...argv.slice(0, at), ...expandWords(expansion, argv.slice(at + 1))]
}

/** The user's alias names, from the profile file as expandAlias reads it; none when there is no file. */
export function aliasNames(env: NodeJS.ProcessEnv): string[] {
  try {
    return Object.keys((JSON.parse(readFileSync(join(configDir(env), 'profiles.json'), 'utf8')) as ProfileFileAliases).aliases ?? {})
  } catch {
    return []
  }
}

/** Why `name` cannot be an alias, or undefined: it must be a plain word and no command of finctl's. */
export function aliasNameProblem(name: string, names: ReadonlySet<string>): string | undefined {
  if (names.has(name) || name === 'alias') return `"${name}" is a command of finctl: an alias cannot hide it`
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(name))
    return `"${name}" is not a name for an alias: a letter, then letters, digits, - or _ (at most 32)`
  return undefined
}
