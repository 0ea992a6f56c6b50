#!/usr/bin/env node
// The finctl executable: a thin launcher of the built bundle (dist/). Run `npm run build` after changing src/.
import { main, realIO } from '../dist/cli.js'

main(process.argv.slice(2), realIO()).then(
  (code) => {
    process.exitCode = code
  },
  (err) => {
    process.stderr.write(`error: internal error: ${err?.message ?? err}\n`)
    process.exitCode = 1
  },
)
