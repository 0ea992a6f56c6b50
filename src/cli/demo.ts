/** Demo data for `finctl init --demo`: one account and a month of ordinary business transactions. */
import type { Client } from '../client/client.js'
import { currencyExponent } from '../kernel/currencies.js'
import type { BankAccount, CreateTransactionRequest, Transaction } from '../domain/schemas.js'

const DEMO: Array<Omit<CreateTransactionRequest, 'bank_account_id' | 'transaction_date'> & { daysAgo: number }> = [
  {
    daysAgo: 27,
    description: 'Invoice 2026-041 paid by Northwind Traders',
    amount: '12500.00',
    category: 'Sales',
    accounting_category: 'revenue',
    cash_flow_category: 'operations',
    merchant_name: 'Northwind Traders',
    tags: ['invoice'],
  },
  {
    daysAgo: 25,
    description: 'Office rent',
    amount: '-3200.00',
    category: 'Rent',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
    merchant_name: 'Harbor Properties',
  },
  {
    daysAgo: 21,
    description: 'Cloud hosting',
    amount: '-412.37',
    category: 'Software',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
    merchant_name: 'Nimbus Cloud',
    tags: ['subscription'],
  },
  {
    daysAgo: 18,
    description: 'Payroll November',
    amount: '-8450.00',
    category: 'Payroll',
    accounting_category: 'payroll',
    cash_flow_category: 'operations',
    merchant_name: 'Payroll run',
  },
  {
    daysAgo: 14,
    description: 'Invoice 2026-042 paid by Contoso',
    amount: '4780.50',
    category: 'Sales',
    accounting_category: 'revenue',
    cash_flow_category: 'operations',
    merchant_name: 'Contoso Ltd',
    tags: ['invoice'],
  },
  {
    daysAgo: 9,
    description: 'Laptops for new hires',
    amount: '-2899.98',
    category: 'Equipment',
    accounting_category: 'capital_expenditure',
    cash_flow_category: 'investing',
    merchant_name: 'TechStore',
  },
  {
    daysAgo: 5,
    description: 'Coffee with client',
    amount: '-18.40',
    category: 'Meals',
    accounting_category: 'operating_expenses',
    cash_flow_category: 'operations',
    merchant_name: 'Corner Cafe',
  },
  {
    daysAgo: 2,
    description: 'Loan repayment',
    amount: '-1500.00',
    category: 'Loan',
    accounting_category: 'loan',
    cash_flow_category: 'financing',
    merchant_name: 'First Bank',
  },
]

/** Demo amounts are written with two decimals; other currencies get them rescaled exactly. */
function scale(amount: string, exponent: number): string {
  const [whole, frac] = amount.split('.')
  if (exponent === 2) return amount
  if (exponent < 2) return exponent === 0 ? whole : `${whole}.${frac.slice(0, exponent)}`
  return `${whole}.${frac.padEnd(exponent, '0')}`
}

export async function createDemoData(
  client: Client,
  currency: string,
  now: Date,
): Promise<{ account: BankAccount; transactions: Transaction[] }> {
  const exp = currencyExponent(currency)
  const account = await client.accounts.create({
    name: 'Operating account',
    account_type: 'checking',
    currency_code: currency,
    institution_name: 'Demo Bank',
    // No opening date: it would refuse every transaction dated before it, and the manual's
    // examples enter some at fixed dates; without one the opening balance counts from the beginning.
    opening_balance: scale('25000.00', exp),
  })
  const transactions: Transaction[] = []
  for (const { daysAgo, ...t } of DEMO) {
    const date = new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10)
    transactions.push(
      await client.transactions.create({ ...t, amount: scale(String(t.amount), exp), bank_account_id: account.id, transaction_date: date }),
    )
  }
  return { account: await client.accounts.get(account.id), transactions }
}
