/** finctl policy show | set --require-approval STEPS: the company's approval policy (docs/people.md). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { APPROVAL_STEPS, type ApprovalStep, bulkStep } from '../../src/domain/approvals/registry.js'
import { count } from '../../src/kernel/words.js'
import { printProposed } from './shared.js'

export type ShowOptions = Record<string, never>
export interface SetOptions {
  requireApproval?: string
  documentThreshold?: string[]
  requireDocuments?: string
  bulkThreshold?: string
}

export function registerPolicyShow(policy: Command, run: Runner, runF: RunVerb<ShowOptions> = runPolicyShow): void {
  policy
    .command('show')
    .description('show the approval policy: the steps that wait for a second person')
    .addHelpText('after', '\nExample:\n  finctl policy show\n')
    .action(run(runF))
}

export function registerPolicySet(policy: Command, run: Runner, runF: RunVerb<SetOptions> = runPolicySet): void {
  policy
    .command('set')
    .description('set the approval policy (the owner); once on, a change is itself a proposal')
    .option('--require-approval <steps>', `comma-separated: ${APPROVAL_STEPS.join(', ')}; "none" turns it off`)
    .option(
      '--document-threshold <amount-currency...>',
      'AMOUNT CURRENCY (repeatable pairs): from this amount a transaction needs a document at close; AMOUNT none removes the currency',
    )
    .option('--require-documents <on|off>', 'on: close refuses while a transaction at or above its threshold has no document')
    .option('--bulk-threshold <n>', 'with bulk: a bulk update or delete of more transactions than this waits for approval (1-1000)')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl policy set --require-approval reopen,revert\n  finctl policy set --require-approval reopen,bulk,key-write --bulk-threshold 50\n  finctl policy set --document-threshold 100.00 EUR --require-documents on\n',
    )
    .action(run(runF))
}

export async function runPolicyShow(host: VerbHost): Promise<number> {
  const client = await host.client()
  const [p, d] = await Promise.all([client.policy.get(), client.closePolicy.get()])
  await printRecord(host.io, host.printer, { ...p, document_thresholds: d.document_thresholds, require_documents: d.require_documents })
  note(
    host.io,
    host.printer,
    p.require_approval.length
      ? `approval needed for: ${p.require_approval.join(', ')}, policy${p.bulk_threshold ? ` (bulk: over ${count(p.bulk_threshold, 'transaction')})` : ''}`
      : 'no approval policy',
  )
  return EXIT.ok
}

/** --require-approval: step names of the table in docs/people.md, or `none`. */
export function stepsFlag(value: string | undefined): ApprovalStep[] {
  if (value === undefined) throw new AppError('usage', `--require-approval is required (${APPROVAL_STEPS.join(', ')}, or none)`)
  const steps = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (steps.length === 1 && steps[0] === 'none') return []
  const bad = steps.filter((s) => !(APPROVAL_STEPS as readonly string[]).includes(s))
  if (bad.length || !steps.length)
    throw new AppError(
      'usage',
      `--require-approval: unknown step ${bad.map((b) => `"${b}"`).join(', ') || '""'} (use ${APPROVAL_STEPS.join(', ')}, or none)`,
    )
  return steps as ApprovalStep[]
}

/** --document-threshold 100.00 EUR [50 USD ...]: pairs of an amount (or none) and a currency. */
export function thresholdsFlag(values: string[]): Record<string, string | null> {
  if (values.length % 2 !== 0)
    throw new AppError('usage', '--document-threshold takes pairs: AMOUNT CURRENCY, such as --document-threshold 100.00 EUR')
  const out: Record<string, string | null> = {}
  for (let i = 0; i < values.length; i += 2) {
    const [amount, currency] = [values[i], values[i + 1].toUpperCase()]
    if (!/^[A-Z]{3}$/.test(currency))
      throw new AppError('usage', `--document-threshold: "${values[i + 1]}" is not a currency code such as EUR (give AMOUNT CURRENCY)`)
    if (amount !== 'none' && !/^\d+(\.\d+)?$/.test(amount))
      throw new AppError('usage', `--document-threshold: "${amount}" is not an amount such as 100.00 (or none to remove ${currency})`)
    out[currency] = amount === 'none' ? null : amount
  }
  return out
}

async function setDocumentPolicy(host: VerbHost, o: SetOptions): Promise<number> {
  const body: { document_thresholds?: Record<string, string | null>; require_documents?: boolean } = {}
  if (o.documentThreshold) body.document_thresholds = thresholdsFlag(o.documentThreshold)
  if (o.requireDocuments !== undefined) {
    if (!['on', 'off'].includes(o.requireDocuments))
      throw new AppError('usage', `--require-documents takes on or off, not "${o.requireDocuments}"`)
    body.require_documents = o.requireDocuments === 'on'
  }
  const p = await (await host.client()).closePolicy.set(body)
  await printRecord(host.io, host.printer, p)
  const list = Object.entries(p.document_thresholds).map(([c, a]) => `${a} ${c}`)
  note(
    host.io,
    host.printer,
    list.length
      ? `a document is needed from ${list.join(', ')}; close ${p.require_documents ? 'refuses' : 'lists, and does not refuse,'} while one is missing`
      : 'no document threshold: close asks for no document',
  )
  return EXIT.ok
}

/** --bulk-threshold: a whole number of rows, 1 to 1000 (the most a bulk update or delete takes); given with bulk alone. */
export function thresholdFlag(value: string | undefined, steps: ApprovalStep[]): number | undefined {
  if (value === undefined) {
    if (steps.includes(bulkStep.name))
      throw new AppError('usage', '--bulk-threshold N is required with bulk (a bulk update or delete of more rows waits)')
    return undefined
  }
  if (!steps.includes(bulkStep.name)) throw new AppError('usage', '--bulk-threshold goes with --require-approval bulk')
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > 1000)
    throw new AppError('usage', `--bulk-threshold: "${value}" is not a whole number from 1 to 1000`)
  return n
}

export async function runPolicySet(host: VerbHost, o: SetOptions): Promise<number> {
  if (o.requireApproval === undefined && (o.documentThreshold || o.requireDocuments !== undefined)) return setDocumentPolicy(host, o)
  const steps = stepsFlag(o.requireApproval)
  if (o.documentThreshold || o.requireDocuments !== undefined)
    throw new AppError('usage', '--require-approval is set on its own: not with --document-threshold or --require-documents')
  const threshold = thresholdFlag(o.bulkThreshold, steps)
  const client = await host.client()
  const r = await client.policy.set({ require_approval: steps, ...(threshold === undefined ? {} : { bulk_threshold: threshold }) })
  if (r.proposal) return printProposed(host, r.proposal)
  await printRecord(host.io, host.printer, r.done)
  const bulk = threshold === undefined ? '' : ` (bulk: over ${count(threshold, 'transaction')})`
  note(host.io, host.printer, steps.length ? `approval now needed for: ${steps.join(', ')}${bulk}` : 'approval policy off')
  return EXIT.ok
}
