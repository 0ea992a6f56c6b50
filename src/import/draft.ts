/**
 * What a mapped CSV row becomes: the fields of a create-transaction request, as plain data. The
 * service's schema (domain/schemas.ts, CreateTransactionRequest) is the one that validates them;
 * this library sits beneath the domain and names only the shape it fills, with the vocabularies
 * (accounting and cash-flow categories) as text the service checks.
 */
export interface TransactionDraft {
  bank_account_id: string
  transaction_date: string
  description: string
  amount: string | number
  currency_code?: string
  posted_date?: string
  original_description?: string
  exchange_rate?: string | number
  category?: string
  accounting_category?: string
  cash_flow_category?: string
  merchant_name?: string
  tags?: string[]
  import_ref?: string
  force?: boolean
}
