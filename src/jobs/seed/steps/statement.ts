/**
 * `statement` steps: a statement file uploaded once per account, found again by its SHA-256 among
 * the account's statements (the service refuses the same file twice, naming the first). Found still
 * processing, it is waited for; found failed, or failing meanwhile, it is uploaded again.
 */
import { basename } from 'node:path'
import type { Client } from '../../../client/client.js'
import type { Statement } from '../../../domain/statements/schemas.js'
import { AppError } from '../../../kernel/errors.js'
import { PLACEHOLDER_ID, fileSha256 } from '../plan.js'
import type { StepHandler } from './handler.js'
import { count } from '../../../kernel/words.js'

export const statement: StepHandler<'statement'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const file = step.file!
    const { bytes, sha } = await fileSha256(file)
    if (state.dryRun && spec.bank_account_id === PLACEHOLDER_ID) {
      state.setResult(step, { id: undefined, status: undefined })
      return { ...base, status: 'would create', detail: `statement ${basename(file)} into a new account` }
    }
    await state.accountById(spec.bank_account_id)
    let found: Statement | undefined
    for await (const page of state.client.statements.pages({ bank_account_id: spec.bank_account_id, limit: 1000 })) {
      found = page.data.find((s) => s.file_sha256 === sha && s.status !== 'failed')
      if (found) break
    }
    // Only a completed statement is done: one still processing is waited for, and one that was cut off
    // (its process killed: the service fails it once that is known) is uploaded again.
    if (found && !state.dryRun) found = await settled(state.client, found)
    if (!found && state.dryRun) {
      state.setResult(step, { id: undefined, status: undefined })
      return { ...base, status: 'would create', detail: `statement ${basename(file)}` }
    }
    if (!found) {
      try {
        const uploaded = await state.client.statements.upload({
          bank_account_id: spec.bank_account_id,
          file_name: basename(file),
          format: spec.format,
          content_base64: bytes.toString('base64'),
          date_format: spec.date_format,
          encoding: spec.encoding,
          delimiter: spec.delimiter,
          account_number: spec.account_number,
          map: spec.map
            ? Object.entries(spec.map).flatMap(([f, cols]) =>
                (Array.isArray(cols) ? cols : [cols]).map((c) => `${f === 'transaction_date' ? 'date' : f}=${c}`),
              )
            : undefined,
          where: spec.where ? Object.entries(spec.where).map(([c, v]) => `${c}=${v}`) : undefined,
          decimal_comma: spec.decimal_comma,
          skip_lines: spec.skip_lines,
          no_header: spec.no_header,
          no_layout: spec.no_layout,
          invert_sign: spec.invert_sign,
          exchange_rate: spec.exchange_rate,
        })
        const s = await state.client.statements.wait(uploaded.id)
        state.setResult(step, { id: s.id, status: s.status })
        state.env(step, 'id', s.id)
        if (s.status === 'failed')
          return { ...base, status: 'failed', id: s.id, detail: `statement ${basename(file)} failed: ${s.error ?? 'no reason given'}` }
        return {
          ...base,
          status: 'created',
          id: s.id,
          detail: `statement ${basename(file)}: ${count(s.transaction_count - s.matched_count, 'transaction')} created, ${s.matched_count} reconciled, ${s.duplicate_count} imported before`,
        }
      } catch (e) {
        // Uploaded meanwhile (another run): the service names the first statement.
        const first = e instanceof AppError && e.code === 'conflict' ? /statement ([0-9a-f-]{36})/.exec(e.message)?.[1] : undefined
        if (!first) throw e
        found = await settled(state.client, await state.client.statements.get(first))
        if (!found) return { ...base, status: 'failed', detail: `statement ${basename(file)}: another run's upload of it failed` }
      }
    }
    state.setResult(step, { id: found.id, status: found.status })
    state.env(step, 'id', found.id)
    return {
      ...base,
      status: 'exists',
      id: found.id,
      detail: `statement ${basename(file)} (${found.status}, uploaded ${found.created_at})`,
    }
  },
}

/** The statement once processed: undefined when it failed (its file is free to upload again). */
async function settled(client: Client, s: Statement): Promise<Statement | undefined> {
  const done = s.status === 'pending' || s.status === 'processing' ? await client.statements.wait(s.id) : s
  return done.status === 'failed' ? undefined : done
}
