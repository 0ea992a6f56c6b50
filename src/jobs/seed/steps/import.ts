/**
 * `import` steps: a CSV file through the `tx import` runner (import_ref from the file's rows, so a
 * second run finds them again as "imported before").
 */
import { basename } from 'node:path'
import { PLACEHOLDER_ID, importOptions } from '../plan.js'
import type { StepStatus } from '../report.js'
import { takeMatches, type StepHandler } from './handler.js'
import { count } from '../../../kernel/words.js'

export const importCsv: StepHandler<'import'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const file = step.file!
    const mapping = importOptions(spec)
    if (state.dryRun && spec.bank_account_id === PLACEHOLDER_ID) {
      const { planImport } = await import('../../../import/plan.js')
      const plan = await planImport(file, mapping)
      state.setResult(step, { read: String(plan.dataRows), created: undefined })
      return { ...base, status: 'would create', detail: `${basename(file)}: ${count(plan.dataRows, 'row')} into a new account` }
    }
    const [{ runPipeline }, { discardRejects }] = await Promise.all([
      import('../../import/pipeline.js'),
      import('../../import/reject-list.js'),
    ])
    const set = spec.set ?? {}
    const constants = { ...set, ...(set.currency_code ? { currency_code: set.currency_code.toUpperCase() } : {}) }
    const s = await runPipeline(state.client, {
      path: file,
      mapping,
      accountId: spec.bank_account_id,
      constants,
      dryRun: state.dryRun,
      concurrency: 2,
      previewRows: 5000,
    })
    // The first 20 are enough here: the rows past the kept ones are not read back.
    discardRejects(s.rejects_spill)
    const errors = s.rejects.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`)
    if (s.rejected > errors.length) errors.push(`... and ${s.rejected - errors.length} more rejected rows`)
    state.setResult(step, { read: String(s.read), created: String(s.created) })
    if (state.dryRun) {
      // Like transactions: rows are matched with the account's transactions by their content.
      const valid = s.read - s.rejected
      const same =
        s.preview && s.preview.length === valid ? takeMatches(await state.contentIndex(spec.bank_account_id), s.preview, s.currency) : 0
      const status: StepStatus = s.rejected ? 'would fail' : same === valid ? 'exists' : 'would create'
      const detail = `${basename(file)}: ${count(s.read, 'row')}, ${valid - same} new${same ? `, ${same} found by date, amount and description` : ''}${s.rejected ? `, ${s.rejected} rejected` : ''}`
      return { ...base, status, detail, ...(errors.length ? { errors } : {}) }
    }
    const counts = { created: s.created, updated: 0, exists: s.already_imported, failed: s.rejected }
    const status: StepStatus = s.rejected ? 'failed' : s.created ? 'created' : 'exists'
    return {
      ...base,
      status,
      detail: `${basename(file)}: ${count(s.read, 'row')}: ${s.created} created, ${s.already_imported} imported before${s.rejected ? `, ${s.rejected} rejected` : ''}`,
      counts,
      ...(errors.length ? { errors } : {}),
    }
  },
}
