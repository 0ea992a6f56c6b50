/** The line a delete or a revert prints for the documents whose links went with its rows (they stay, unlinked). */
import { count } from '../kernel/words.js'
import { shortId } from './short-ids.js'
import { printableLine } from './terminal-text.js'

export function unlinkedDocumentsLine(docs: ReadonlyArray<{ id: string; file_name: string }>, from: string): string {
  const named = docs
    .slice(0, 3)
    .map((d) => `${printableLine(d.file_name)} ${shortId(d.id)}`)
    .join(', ')
  return `${count(docs.length, 'document')} unlinked from ${from} and kept (${named}${docs.length > 3 ? ', …' : ''}: finctl docs list --unlinked)`
}
