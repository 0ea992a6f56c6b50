/**
 * The one table from the service's field names to the command line's words: the CLI's error
 * messages (src/cli/user-words.ts, which holds the rules for using it) and the reasons `tx import`
 * gives a rejected row on its own thread (src/jobs/import/send.ts) both read it.
 */

/** Fields whose flag is not their own name in kebab case. */
export const FLAG_OF: Readonly<Record<string, string>> = {
  bank_account_id: '--account',
  transaction_date: '--date',
  currency_code: '--currency',
  account_type: '--type',
  is_reconciled: '--reconciled',
  q: '--search',
  auto_categorize: '--auto',
  transaction_ids: '--ids',
  is_active: '--enable',
  force: '--force',
  opening_exchange_rate: '--opening-rate',
}

/**
 * Per command, fields filled by a flag of another name, by an argument, or (`tx import`) by a
 * field of --map: a rejected row's reason names these without the command at hand.
 */
export const BY_COMMAND: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'statements upload': { account_number: '--statement-account', content_base64: 'FILE', filename: 'FILE', format: '--format' },
  'keys usage': { limit: '--recent' },
  'tx import': {
    transactions: 'FILE',
    transaction_date: 'date',
    bank_account_id: '--account',
    force: '--force',
    exchange_rate: '--set exchange_rate',
  },
  'rates import': { content_base64: 'FILE', file: 'FILE', file_name: 'FILE' },
  'rules create': { description_regex: '--matches', merchant_regex: '--merchant-matches' },
  'rules update': { description_regex: '--matches', merchant_regex: '--merchant-matches' },
}
