/** A generated labelled row (src/domain/categorization/dataset.ts) as a create request: with its category, or without for the model to predict. */
import type { LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'

export function labelledRequest(accountId: string, t: LabelledTransaction, labelled: boolean): CreateTransactionRequest {
  return {
    bank_account_id: accountId,
    transaction_date: t.transaction_date,
    description: t.description,
    amount: t.amount,
    merchant_name: t.merchant_name ?? undefined,
    ...(labelled ? { category: t.category } : {}),
  }
}
