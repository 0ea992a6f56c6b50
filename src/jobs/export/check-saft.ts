/**
 * A Norwegian SAF-T Financial file read against its rules (docs/exporting.md, "Checking a file"): read
 * as a stream of XML (saxes), the root in the 1.30 namespace, NumberOfEntries equal to the
 * transactions, TotalDebit and TotalCredit equal to the lines' sums and to each other, each
 * transaction balanced, each line's account among the accounts, each account's opening balance plus
 * its lines equal to its closing balance, the opening balances summing to zero. Against the XSD as
 * Skatteetaten publishes it (xmllint-wasm: libxml2 in WebAssembly, no native build) when its path is
 * given (--xsd, or FINCTL_SAFT_XSD): finctl does not ship it (no licence grants its redistribution).
 * `readSaft` gives the balances, for a round trip.
 */
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { SaxesParser } from 'saxes'
import { AppError } from '../../kernel/errors.js'
import type { CheckReport } from './check-report.js'
import { Problems, scaled, shownUnits } from './check-report.js'
import { SAFT_NAMESPACE } from '../../domain/exports/formats/saft.js'

export interface SaftAccount {
  opening: bigint
  closing: bigint
  /** Debit minus credit of its lines. */
  lines: bigint
  line: number
}

export interface SaftRead {
  report: CheckReport
  accounts: Map<string, SaftAccount>
  entries: number
}

const money = (s: string) => scaled(s, 2)

export async function readSaft(path: string): Promise<SaftRead> {
  const p = new Problems()
  const accounts = new Map<string, SaftAccount>()
  const used = new Map<string, number>()
  const movement = new Map<string, bigint>()
  const parser = new SaxesParser({ xmlns: true, position: true })
  const stack: string[] = []
  let text = ''
  let declared: { number?: string; total?: { debit?: bigint; credit?: bigint }; line: number } = { line: 0 }
  let account: { id?: string; opening: bigint; closing: bigint; line: number } | undefined
  let tx: { id?: string; line: number; debit: bigint; credit: bigint } | undefined
  let lineAcc: { account?: string; amount?: bigint; side?: 'd' | 'c'; line: number } | undefined
  let transactions = 0
  let debit = 0n
  let credit = 0n
  let version: string | undefined
  let rootSeen = false
  const value = (line: number, what: string) => {
    const v = money(text)
    if (v === undefined) p.add(line, `${what} "${text.trim()}" is not an amount with at most 2 decimals`)
    return v ?? 0n
  }
  parser.on('opentag', (tag) => {
    const name = tag.local
    if (!rootSeen) {
      rootSeen = true
      if (name !== 'AuditFile') p.add(parser.line, `the root is <${tag.name}>, not <AuditFile>`)
      if (tag.uri !== SAFT_NAMESPACE) p.add(parser.line, `the namespace is "${tag.uri}", not ${SAFT_NAMESPACE}`)
    }
    stack.push(name)
    text = ''
    if (name === 'Account' && stack.at(-2) === 'GeneralLedgerAccounts') account = { opening: 0n, closing: 0n, line: parser.line }
    if (name === 'Transaction' && stack.at(-2) === 'Journal') {
      tx = { line: parser.line, debit: 0n, credit: 0n }
      transactions++
    }
    if (name === 'Line' && tx) lineAcc = { line: parser.line }
    if (name === 'GeneralLedgerEntries') declared = { line: parser.line, total: {} }
  })
  parser.on('text', (t) => {
    text += t
  })
  parser.on('closetag', (tag) => {
    const name = tag.local
    const parent = stack.at(-2)
    const line = parser.line
    if (name === 'AuditFileVersion') version = text.trim()
    if (account && parent === 'Account') {
      if (name === 'AccountID') account.id = text.trim()
      if (name === 'OpeningDebitBalance') account.opening = value(line, name)
      if (name === 'OpeningCreditBalance') account.opening = -value(line, name)
      if (name === 'ClosingDebitBalance') account.closing = value(line, name)
      if (name === 'ClosingCreditBalance') account.closing = -value(line, name)
    }
    if (name === 'Account' && account) {
      if (account.id === undefined) p.add(account.line, 'an account without AccountID')
      else if (accounts.has(account.id)) p.add(account.line, `account ${account.id} is listed twice`)
      else accounts.set(account.id, { opening: account.opening, closing: account.closing, lines: 0n, line: account.line })
      account = undefined
    }
    if (parent === 'GeneralLedgerEntries') {
      if (name === 'NumberOfEntries') declared.number = text.trim()
      if (name === 'TotalDebit') declared.total!.debit = value(line, name)
      if (name === 'TotalCredit') declared.total!.credit = value(line, name)
    }
    if (lineAcc) {
      if (name === 'AccountID' && parent === 'Line') lineAcc.account = text.trim()
      if (name === 'Amount' && (parent === 'DebitAmount' || parent === 'CreditAmount')) {
        lineAcc.amount = value(line, 'Amount')
        lineAcc.side = parent === 'DebitAmount' ? 'd' : 'c'
      }
      if (name === 'Line' && tx) {
        const a = lineAcc.amount ?? 0n
        if (lineAcc.side === 'd') tx.debit += a
        else tx.credit += a
        if (lineAcc.account !== undefined) {
          if (!used.has(lineAcc.account)) used.set(lineAcc.account, lineAcc.line)
          movement.set(lineAcc.account, (movement.get(lineAcc.account) ?? 0n) + (lineAcc.side === 'd' ? a : -a))
        }
        lineAcc = undefined
      }
    }
    if (name === 'Transaction' && tx && parent === 'Journal') {
      if (tx.debit !== tx.credit)
        p.add(tx.line, `a transaction whose debit ${shownUnits(tx.debit, 2)} is not its credit ${shownUnits(tx.credit, 2)}`)
      debit += tx.debit
      credit += tx.credit
      tx = undefined
    }
    stack.pop()
    text = ''
  })
  parser.on('error', (e) => {
    throw new AppError('validation_error', `${path}: not well-formed XML: ${e.message}`)
  })
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) parser.write(chunk as string)
  parser.close()

  if (version !== '1.30') p.add(0, `AuditFileVersion is ${version ?? 'missing'}, not 1.30`)
  if (declared.number === undefined) p.add(0, 'no GeneralLedgerEntries with NumberOfEntries')
  else if (declared.number !== String(transactions))
    p.add(declared.line, `NumberOfEntries is ${declared.number}, the file holds ${transactions} transactions`)
  if (declared.total?.debit !== undefined && declared.total.debit !== debit)
    p.add(declared.line, `TotalDebit is ${shownUnits(declared.total.debit, 2)}, the lines' debits sum to ${shownUnits(debit, 2)}`)
  if (declared.total?.credit !== undefined && declared.total.credit !== credit)
    p.add(declared.line, `TotalCredit is ${shownUnits(declared.total.credit, 2)}, the lines' credits sum to ${shownUnits(credit, 2)}`)
  if (declared.total?.debit !== undefined && declared.total.credit !== undefined && declared.total.debit !== declared.total.credit)
    p.add(declared.line, 'TotalDebit is not TotalCredit')
  for (const [id, line] of used) if (!accounts.has(id)) p.add(line, `a line to account ${id}, which GeneralLedgerAccounts does not list`)
  let openings = 0n
  for (const [id, a] of accounts) {
    a.lines = movement.get(id) ?? 0n
    openings += a.opening
    if (a.opening + a.lines !== a.closing)
      p.add(
        a.line,
        `account ${id}: opening ${shownUnits(a.opening, 2)} + its lines ${shownUnits(a.lines, 2)} is not its closing ${shownUnits(a.closing, 2)}`,
      )
  }
  if (openings !== 0n) p.add(0, `the opening balances sum to ${shownUnits(openings, 2)} (debit positive), not 0`)
  return {
    report: {
      format: 'saft-no',
      problems: p.list,
      checks: [
        'namespace and version 1.30',
        'NumberOfEntries, TotalDebit, TotalCredit',
        'each transaction balances',
        'accounts: opening + lines = closing',
      ],
      rows: transactions,
      ...(p.count > p.list.length ? { more: p.count - p.list.length } : {}),
    },
    accounts,
    entries: transactions,
  }
}

/** Validate against the XSD (libxml2 in WebAssembly): each error with its line. */
export async function validateXsd(path: string, xsd: string): Promise<Array<{ line: number; message: string }>> {
  const [xml, schema, size] = await Promise.all([readFile(path), readFile(xsd, 'utf8'), stat(path)])
  const { validateXML } = await import('xmllint-wasm')
  // libxml2 holds the document in WebAssembly memory: pages of 64 KiB, room for ~8 times the file.
  const pages = Math.min(65536, Math.max(512, Math.ceil((size.size * 8) / 65536) + 512))
  const r = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: 'schema.xsd', contents: schema }],
    maxMemoryPages: pages,
  })
  return r.errors.map((e) => ({ line: e.loc?.lineNumber ?? 0, message: e.message }))
}

export async function checkSaft(path: string, xsd = process.env.FINCTL_SAFT_XSD): Promise<CheckReport> {
  const read = await readSaft(path)
  if (xsd) {
    const errors = await validateXsd(path, xsd).catch((e: NodeJS.ErrnoException) => {
      throw new AppError(
        e.code === 'ENOENT' ? 'usage' : 'internal_error',
        `--xsd ${xsd}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`,
      )
    })
    for (const e of errors) read.report.problems.push({ line: e.line, message: `XSD: ${e.message}` })
    read.report.checks.unshift(`XSD ${xsd.split('/').pop()}`)
  }
  read.report.problems.sort((a, b) => a.line - b.line)
  return read.report
}
