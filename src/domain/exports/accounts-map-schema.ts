/**
 * The accounts map (docs/exporting.md, "Accounts" and "A chart of accounts"): which account each
 * finctl thing is posted to. A journal takes account names, DATEV, SIE and SAF-T take account
 * numbers of a chart; one file holds both. An entry is a journal account (`Expenses:IT`), a number
 * (`4980`, or "4980"), or both with a description and SAF-T's grouping
 * (`{account: Expenses:IT, number: 4980, name: EDV-Kosten}`). The service keeps a company's map
 * (`finctl export map set`); `--accounts-map FILE` gives one for an export.
 */
import { z } from '@hono/zod-openapi'

/** An account number: digits, as a JSON number or text (a leading 0 needs text). */
export const AccountNumber = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^\d{1,20}$/, 'must be digits'),
])

export const MapEntry = z.union([
  z.string().min(1),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z
    .object({
      account: z.string().min(1).optional().openapi({ description: "the journals' account name" }),
      number: AccountNumber.optional().openapi({ description: "the account's number in the chart (DATEV, SIE, SAF-T)" }),
      name: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .openapi({ description: "the account's description (SIE #KONTO, SAF-T AccountDescription)" }),
      grouping_category: z.string().min(1).max(256).optional().openapi({ description: "SAF-T's GroupingCategory, e.g. salgsinntekt" }),
      grouping_code: z.string().min(1).max(35).optional().openapi({ description: "SAF-T's GroupingCode, e.g. 3000" }),
    })
    .strict(),
])
export type MapEntry = z.infer<typeof MapEntry>

const Entries = z.record(z.string(), MapEntry)

export const CHARTS = ['skr03', 'skr04', 'bas', 'no-standard'] as const
export type Chart = (typeof CHARTS)[number]

const MonthDay = z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be MM-DD, e.g. 01-01')

export const AccountsMapFile = z
  .object({
    chart: z.enum(CHARTS).optional().openapi({ description: "the chart the numbers are of (DATEV's SKR in the header)" }),
    fiscal_year_start: MonthDay.optional().openapi({ description: 'the first day of the fiscal year, MM-DD (default 01-01)' }),
    bank_accounts: Entries.optional().openapi({ description: 'bank account id or name -> account' }),
    categories: Entries.optional().openapi({ description: 'category -> account (taken whole: no sub-account)' }),
    accounting_categories: Entries.optional().openapi({ description: 'accounting category -> account' }),
    cash_flow_categories: Entries.optional().openapi({ description: 'cash-flow category -> account (wins over the rest)' }),
    category_subaccounts: z
      .boolean()
      .optional()
      .openapi({ description: 'journals: false posts to the accounting category account itself' }),
    uncategorized_income: MapEntry.optional(),
    uncategorized_expense: MapEntry.optional(),
    opening_balances: MapEntry.optional(),
    datev: z
      .object({
        adviser: z.number().int().min(1001).max(9999999).openapi({ description: 'Beraternummer' }),
        client: z.number().int().min(1).max(99999).openapi({ description: 'Mandantennummer' }),
        account_length: z.number().int().min(4).max(8).optional().openapi({ description: 'Sachkontenlänge (default 4)' }),
      })
      .strict()
      .optional(),
    sie: z
      .object({ organization_number: z.string().min(1).max(20).optional().openapi({ description: '#ORGNR' }) })
      .strict()
      .optional(),
    saft: z
      .object({
        registration_number: z.string().min(1).max(35).openapi({ description: 'the organization number (Company RegistrationNumber)' }),
        vat_number: z.string().min(1).max(35).optional().openapi({ description: 'TaxRegistrationNumber, when registered for VAT' }),
        contact: z
          .object({
            first_name: z.string().min(1).max(35),
            last_name: z.string().min(1).max(70),
            telephone: z.string().min(1).max(18),
            email: z.string().min(1).max(70).optional(),
          })
          .strict(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('AccountsMap')
export type AccountsMapFile = z.infer<typeof AccountsMapFile>

/** The journal account an entry names, if any: a text that is not a number. */
export function entryAccount(e: MapEntry | undefined): string | undefined {
  if (e === undefined || typeof e === 'number') return undefined
  if (typeof e === 'string') return /^\d+$/.test(e) ? undefined : e
  return e.account
}

/** The account number an entry names, as text, if any. */
export function entryNumber(e: MapEntry | undefined): string | undefined {
  if (e === undefined) return undefined
  if (typeof e === 'number') return String(e)
  if (typeof e === 'string') return /^\d+$/.test(e) ? e : undefined
  return e.number === undefined ? undefined : String(e.number)
}

export const StoredAccountsMap = z
  .object({
    map: AccountsMapFile.nullable().openapi({ description: 'the map; null when none is stored' }),
    sha256: z.string().nullable().openapi({ description: 'SHA-256 (hex) of the stored JSON text' }),
    updated_by: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .openapi('StoredAccountsMap')
export type StoredAccountsMap = z.infer<typeof StoredAccountsMap>
