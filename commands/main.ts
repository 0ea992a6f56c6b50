/**
 * Entry of the CLI bundle. `--version` answers without loading anything else; every other
 * command loads the program, which loads each command's dependencies only when it runs.
 */
import type { IO } from '../src/cli/io.js'
import { VERSION } from '../src/version.js'

export async function main(argv: string[], io: IO): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`)
    return 0
  }
  const { runProgram } = await import('./root.js')
  return runProgram(argv, io)
}

export { realIO } from '../src/cli/io.js'
export { hideSecretsFromProcessList } from '../src/cli/process-title.js'
