/**
 * The writes inside a write transaction that each dialect does its own way (the audit chain's head
 * lock, events' ordering lock, a creation's entry), bound to the store's dialect so that the domain
 * calls `store.writes` and never names one.
 */
import { appendAudit, appendChained, chainHead } from './audit-chain.js'
import { chainCreations } from './creations.js'
import { insertEvents } from './events.js'
import { deleteSeqRuns, seqRuns } from './row-deletes.js'
import type { DialectWrites } from './store.js'
import type { TransactionCodec } from './transaction-codec.js'

/** The writes of the codec's dialect (its adapter). */
export function dialectWrites(codec: TransactionCodec): DialectWrites {
  const adapter = codec.adapter
  const dialect = adapter.sql
  return {
    appendAudit: (trx, rows, chunk) => appendAudit(trx, dialect, rows, chunk),
    chainHead: (trx, companyId) => chainHead(trx, dialect, companyId),
    appendChained: (trx, companyId, rows) => appendChained(trx, dialect, companyId, rows),
    insertEvents: (trx, rows) => insertEvents(trx, adapter, rows),
    chainCreations: (trx, rows, ids) => chainCreations(trx, dialect, codec, rows, ids),
    deleteTransactions: (trx, seqs) => deleteSeqRuns(trx, adapter, seqRuns(seqs)),
    deleteTransactionRuns: (trx, runs) => deleteSeqRuns(trx, adapter, runs),
  }
}
