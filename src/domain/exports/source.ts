/**
 * What an export reads and where it writes (write.ts): the reads a client makes through the service
 * (src/jobs/export/run.ts) or the service makes on its store (closing/pack-check.ts).
 */
import type { CashFlowReport, SummaryReport } from '../reports/schemas.js'
import type { StoredAccountsMap } from './accounts-map-schema.js'
import type { BankAccountInfo } from './formats/accounts-map.js'
import type { ExportAsOf, ExportGroups, ExportTransaction, OpeningBalances } from './schemas.js'

/** A page of the period's transactions, in date order, and the period's count. */
export interface ExportPage {
  data: ExportTransaction[]
  total?: number
}

export type Scope = { from: string; to: string; bank_account_id?: string }

/** What an export reads: the service's answers, through a client or straight from the store. */
export interface ExportSource {
  company(): Promise<{ name: string; base_currency: string; lock_date: string | null }>
  accounts(): Promise<BankAccountInfo[]>
  pages(q: Scope & { limit: number }): AsyncIterable<ExportPage>
  openingBalances(q: { from: string; bank_account_id?: string; as_of?: string }): Promise<OpeningBalances>
  summary(q: Scope & { as_of?: string }): Promise<SummaryReport>
  cashFlow(q: Scope & { as_of?: string }): Promise<CashFlowReport>
  /** The period as it stood at `as_of`: the rows to leave out of the pages, and those to put in. */
  asOf(q: Scope & { as_of: string }): Promise<ExportAsOf>
  /** The period's groups, for the filing formats (DATEV, SIE, SAF-T). */
  groups(q: Scope & { as_of?: string }): Promise<ExportGroups>
  /** The company's accounts map: the filing formats take it when none is given. */
  accountsMap(): Promise<StoredAccountsMap>
}

/** How an export's text or bytes reach their file. */
export type ExportWrite = (chunk: string | Uint8Array) => Promise<void>

/** Each page of the period, with --as-of's rows as they stood in their place. */
export type EachPage = (fn: (page: ExportTransaction[]) => Promise<void> | void) => Promise<void>
