/**
 * `npm run dev -- ARGS`: the CLI run from the TypeScript sources with tsx, without building the
 * bundle (bin/finctl.cjs runs the bundle). Same entry, same exit codes; slower to start.
 */
import { hideSecretsFromProcessList, main, realIO } from './main.js'

hideSecretsFromProcessList()
process.exitCode = await main(process.argv.slice(2), realIO())
