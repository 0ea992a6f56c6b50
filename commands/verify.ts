/** finctl verify: walk the company's audit hash chain (docs/audit.md). */
import type { Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { printRecord } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'

export function registerVerify(program: Command, run: Runner): void {
  program
    .command('verify')
    .description(
      `check the audit trail's hash chain: exit 0 when intact, ${EXIT.auditBroken} naming the first entry changed, removed or inserted`,
    )
    .addHelpText('after', '\nExamples:\n  finctl verify\n  finctl verify --json\n')
    .action(run(runVerify))
}

async function runVerify(ctx: Context): Promise<number> {
  const client = await ctx.client()
  const r = await client.audit.verify()
  const code = r.intact ? EXIT.ok : EXIT.auditBroken
  if (ctx.printer.format !== 'table') {
    await printRecord(ctx.io, ctx.printer, r)
    if (r.broken) ctx.io.stderr.write(`audit trail broken: ${r.broken.message}\n`)
    return code
  }
  if (r.broken) {
    ctx.io.stdout.write(`broken ${r.broken.kind} ${r.broken.entry_id ?? ''}\n`)
    ctx.io.stderr.write(`audit trail broken: ${r.broken.message}\n`)
    return code
  }
  ctx.io.stdout.write(`intact: ${r.entries} entries, head #${r.head.id ?? 'none'} sha256:${r.head.hash}\n`)
  return code
}
