/**
 * Secrets given on the command line kept out of the process list: `ps` and /proc/PID/cmdline show
 * what finctl's title says once it has started, so the title is the command line with every
 * database URL's password and every `--api-key` or `--token` value as `***`.
 */
import { redactPasswords } from '../kernel/redact.js'

/** Flags whose value is a credential, given after them or after `=`. */
const SECRET_FLAGS = ['--api-key', '--token']

/** `argv` as a process list may show it. */
export function shownArgv(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    for (const flag of SECRET_FLAGS) {
      if (arg.startsWith(`${flag}=`)) return `${flag}=***`
      if (argv[i - 1] === flag) return '***'
    }
    return redactPasswords(arg)
  })
}

/**
 * Sets the process's title to its command line without secrets, when it holds one. On Linux the
 * title replaces the command line that `ps` reads; elsewhere Node.js may only rename the process.
 */
export function hideSecretsFromProcessList(): void {
  const argv = [process.argv0, ...process.execArgv, ...process.argv.slice(1)]
  const shown = shownArgv(argv)
  if (shown.every((arg, i) => arg === argv[i])) return
  try {
    process.title = shown.join(' ')
  } catch {
    // a title that cannot be set leaves the command line as it was: never a reason to fail
  }
}
