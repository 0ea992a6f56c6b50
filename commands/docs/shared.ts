/** What the docs verbs share: the columns of a document. */
import type { Column } from '../../src/cli/output.js'
import { idColumn } from '../../src/cli/columns.js'
import type { Document } from '../../src/domain/documents/schemas.js'

export const documentColumns: Column<Document>[] = [
  idColumn((d: Document) => d.id),
  { header: 'added', value: (d) => d.created_at.slice(0, 19).replace('T', ' '), whole: true, drop: 0 },
  { header: 'kind', value: (d) => d.kind },
  { header: 'size', value: (d) => d.size, align: 'right', drop: 1 },
  { header: 'file', value: (d) => d.file_name, wide: true, min: 12 },
  { header: 'transactions', value: (d) => d.transaction_ids.join(' '), drop: 2 },
]
