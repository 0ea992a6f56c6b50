/** The command reference in docs/commands/ is the command tree's: a changed flag, command or example fails here. */
import { join } from 'node:path'
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import {
  commandTree,
  committedReference,
  REFERENCE_DIR,
  referenceDifferences,
  renderCommandReference,
} from '../../scripts/docs/command-reference.js'

const DIR = join(import.meta.dirname, '../..', REFERENCE_DIR)

describe('docs/commands/', () => {
  it('is what the command tree gives (else run `npm run docs:commands`)', async () => {
    expect(referenceDifferences(renderCommandReference(await commandTree()), committedReference(DIR))).toEqual([])
  })

  it('names the page of a flag whose help changed, and the line', async () => {
    const current = renderCommandReference(await commandTree())
    const tree = await commandTree()
    const tx = tree.commands.find((c) => c.name() === 'tx')!
    const flag = tx.commands.find((c) => c.name() === 'import')!.options.find((o) => o.long === '--account')!
    flag.description = 'the account, said otherwise'
    const problems = referenceDifferences(renderCommandReference(tree), current)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^finctl-tx\.md:\d+: the tree gives "- `--account <id>`: the account, said otherwise"/)
  })

  it('names the pages of a new flag, a command gone and a command added', async () => {
    const current = renderCommandReference(await commandTree())
    const tree = await commandTree()
    tree.commands.find((c) => c.name() === 'rates')!.commands[0].option('--newer', 'a flag the pages do not have')
    const commands = tree.commands as Command[]
    commands.splice(
      commands.findIndex((c) => c.name() === 'doctor'),
      1,
    )
    tree.command('audit').description('a command the pages do not have')
    const problems = referenceDifferences(renderCommandReference(tree), current)
    expect(problems.map((p) => p.replace(/:.*/, '')).sort()).toEqual([
      'README.md',
      'finctl-audit.md',
      'finctl-doctor.md',
      'finctl-rates.md',
    ])
    expect(problems).toContain('finctl-audit.md: missing')
    expect(problems).toContain('finctl-doctor.md: no such command')
  })

  it("carries each command's examples", async () => {
    const tx = renderCommandReference(await commandTree()).get('finctl-tx.md')!
    expect(tx).toContain('## finctl tx import\n')
    expect(tx).toContain('  finctl tx import statement.csv --account $ACCOUNT --dry-run\n')
  })
})
