/**
 * A category is any name a transaction is given, so a typo is not refused: a filter on it finds
 * nothing and a write makes a new category. Either way the user is told the nearest names.
 */
import type { Client } from '../client/client.js'
import { didYouMean } from '../kernel/near-names.js'
import { note } from './output.js'
import type { VerbHost } from './runner.js'
import { printableLine } from './terminal-text.js'

export async function noteNearCategory(host: VerbHost, client: Client, name: string | undefined, use: 'filter' | 'set'): Promise<void> {
  if (!name) return
  let names: string[]
  try {
    names = (await client.categories()).categories.map((c) => c.name)
  } catch {
    return // the command's own request says what is wrong with the target
  }
  if (names.includes(name)) return
  const near = didYouMean(names, name)
  if (!near) return
  const shown = printableLine(name)
  note(
    host.io,
    host.printer,
    use === 'filter'
      ? `--category: no transaction has the category "${shown}"${printableLine(near)}`
      : `--category: "${shown}" is a new category${printableLine(near)}`,
  )
}
