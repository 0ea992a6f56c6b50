/**
 * `finctl export`: reads a period through the service (GET /exports/transactions, page by page in
 * date order, and what the format needs besides: the accounts, the balances before the period, the
 * reports) and writes the format to `sink` as it goes, waiting whenever the sink is full. Memory is
 * one page and the sets of account names, whatever the number of rows. The writing itself is the
 * domain's (domain/exports/write.ts), which the service runs on its store to check a pack.
 */
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import type { Client } from '../../client/client.js'
import { type ExportResult, type ExportSource, type ExportSpec, type ExportWrite, writeExport } from '../../domain/exports/write.js'

export type { ExportResult }

export interface ExportRequest extends ExportSpec {
  /**
   * How text reaches the sink (default: write, then wait while it is full); the CLI's stdout writer
   * also stops the export, by throwing, when its reader has gone (`| head`).
   */
  write?: ExportWrite
}

/** Write, and wait while the sink is full; a sink that fails or closes meanwhile fails the export. */
async function drained(sink: Writable, chunk: string | Uint8Array): Promise<void> {
  if (sink.destroyed || sink.errored) throw sink.errored ?? new Error('the output was closed')
  if (!chunk || sink.write(chunk)) return
  const ac = new AbortController()
  await Promise.race([once(sink, 'drain', { signal: ac.signal }), once(sink, 'close', { signal: ac.signal })]).finally(() => ac.abort())
  if (sink.destroyed || sink.errored) throw sink.errored ?? new Error('the output was closed')
}

/** The export's reads, through the service. */
export function clientSource(client: Client): ExportSource {
  return {
    company: () => client.company(),
    accounts: async () => (await client.accounts.list()).data,
    pages: (q) => {
      const pages = client.exports.transactions(q)
      return (async function* () {
        for await (const page of pages) yield { data: page.data, total: page.pagination?.total }
      })()
    },
    openingBalances: (q) => client.exports.openingBalances(q),
    summary: (q) => client.reports.summary(q),
    cashFlow: (q) => client.reports.cashFlow(q),
    asOf: (q) => client.exports.asOf(q),
    groups: (q) => client.exports.groups(q),
    accountsMap: () => client.exportMap.get(),
  }
}

export function runExport(client: Client, r: ExportRequest, sink: Writable): Promise<ExportResult> {
  return writeExport(
    clientSource(client),
    r,
    (chunk) => (r.write ? r.write(chunk) : drained(sink, chunk)),
    () => sink,
  )
}
