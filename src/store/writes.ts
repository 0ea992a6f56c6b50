/**
 * The writes inside a write transaction that each dialect does its own way (the audit chain's head
 * lock, events' ordering lock, a creation's entry), bound to the store's dialect so that the domain
 * calls `store.writes` and never names one.
 */
import { appendAudit, appendChained, chainHead } from './audit-chain.js'
import { chainCreations } from './creations.js'
import { insertEvents } from './events.js'
import { deleteSeqRuns, seqRuns } from './row-deletes.js'
import type { Dialect, DialectWrites } from './store.js'
import type { TransactionCodec } from './transaction-codec.js'

export function dialectWrites(dialect: Dialect, codec: TransactionCodec): DialectWrites {
  return {
    appendAudit: (trx, rows, chunk) => appendAudit(trx, dialect, rows, chunk),
    chainHead: (trx, companyId) => chainHead(trx, dialect, companyId),
    appendChained: (trx, companyId, rows) => appendChained(trx, dialect, companyId, rows),
    insertEvents: (trx, rows) => insertEvents(trx, dialect, rows),
    chainCreations: (trx, rows, ids) => chainCreations(trx, dialect, codec, rows, ids),
    deleteTransactions: (trx, seqs) => deleteSeqRuns(trx, dialect, seqRuns(seqs)),
    deleteTransactionRuns: (trx, runs) => deleteSeqRuns(trx, dialect, runs),
  }
}
