/** finctl company [show]: the company's details, with the public key of its packs. */
import type { Command } from 'commander'
import { printRecord, say } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { nearNames } from '../../src/kernel/near-names.js'

export type ShowOptions = Record<string, never>

export function registerShow(program: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  const company = program
    .command('company')
    .description("the company's details, and the public key that checks its packs (finctl verify --pack)")
    .addHelpText('after', '\nExamples:\n  finctl company --json\n  finctl company show --json --jq .pack_public_key\n')
    .allowExcessArguments(true)
    .action(run(runF))
  // `company show` is `company`, as `policy show` is: the key an auditor is given is read with either.
  company
    .command('show')
    .description("the company's details (the same as finctl company)")
    .allowExcessArguments(false) // company's setting is inherited: `company show x` stays an error
    .addHelpText('after', '\nExample:\n  finctl company show --json --jq .pack_public_key\n')
    .action(run(runF))
  // With an action of its own, commander would call `company shows` "too many arguments".
  company.hook('preAction', (self, action) => {
    const word = action === self ? self.args[0] : undefined
    if (word === undefined) return
    const near = nearNames(
      self.commands.map((c) => c.name()),
      word,
    )
    self.error(`error: unknown command '${word}'${near.length ? `\n(Did you mean ${near.join(' or ')}?)` : ''}`, {
      code: 'commander.unknownCommand',
    })
  })
}

export async function runShow(ctx: VerbHost): Promise<number> {
  const client = await ctx.client()
  const c = await client.company()
  await printRecord(ctx.io, ctx.printer, c)
  // What the service shows is pinned for verify --pack (src/cli/known-keys.ts), when nothing is yet.
  const { pinCompanyKey } = await import('../../src/cli/known-keys.js')
  const warning = pinCompanyKey(ctx.io.env, c, ctx.io.now())
  if (warning) say(ctx.io, warning)
  return 0
}
