/** finctl forecast [--from D] --days N [--account A] [--scenario FILE] [--fail-below AMOUNT] [--chart] [--items]: the daily balance ahead. */
import { type Command, Option } from 'commander'
import type { Client } from '../src/client/client.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { recurringItemId } from '../src/cli/id-kinds.js'
import { wholeNumber } from '../src/cli/flags.js'
import { lineChart } from '../src/cli/line-chart.js'
import { minorOf, showAmount, typedAmount } from '../src/cli/money.js'
import { note, printList, printRecord, say } from '../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'
import { MIN_ID_PART, resolveAccountId } from '../src/cli/short-ids.js'
import { printableLine } from '../src/cli/terminal-text.js'
import type { Scenario } from '../src/domain/recurring/forecast-schemas.js'
import { AppError } from '../src/kernel/errors.js'

export interface ForecastOptions {
  from?: string
  days: string
  account?: string
  scenario?: string
  failBelow?: string
  version?: string
  /** `--version` after the command (src/cli/budget-version.ts). */
  budgetVersion?: string
  chart?: boolean
  items?: boolean
}

export function registerForecast(program: Command, run: Runner, runF: RunVerb<ForecastOptions> = runForecast): void {
  program
    .command('forecast')
    .description('the balance day by day ahead: recorded transactions, accepted recurring items, unspent budgets; its lowest day')
    .option('--from <date>', 'the first day (default today)')
    .requiredOption('--days <n>', 'how many days (at most 1000)')
    .option('--account <id>', 'one bank account: its name or id (budgets are left out)')
    .option('--scenario <file>', 'a JSON or YAML file of items to add and remove (docs/forecast.md)')
    .option('--fail-below <amount>', 'exit 12 when the lowest balance is below this amount (base currency)')
    .option('--version <name>', 'the budget version (default: the current one)')
    .addOption(new Option('--budget-version <name>').hideHelp())
    .option('--chart', 'draw the balance as a line')
    .option('--items', "print each day's items")
    .addHelpText(
      'after',
      '\nExamples:\n  finctl forecast --days 90\n  finctl forecast --days 365 --chart\n  finctl forecast --days 30 --fail-below 10000 || echo "the money runs low"\n  finctl forecast --days 180 --scenario hire.json --items\n',
    )
    .action(run(runF))
}

async function readScenario(path: string): Promise<Scenario> {
  await requireInputFile(path)
  const { readFile } = await import('node:fs/promises')
  const text = await readFile(path, 'utf8')
  try {
    if (/\.ya?ml$/i.test(path)) {
      const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') }
      return (mod.parse ?? mod.default!.parse)(text) as Scenario
    }
    return JSON.parse(text) as Scenario
  } catch (e) {
    throw new AppError(
      'validation_error',
      `--scenario ${printableLine(path)}: not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`,
    )
  }
}

/** A scenario's `remove` with each short id of an accepted item made whole; names and budget:CATEGORY as written. */
async function wholeIds(client: Client, scenario: Scenario): Promise<Scenario> {
  const remove: unknown = scenario.remove
  const short = (r: unknown): r is string => typeof r === 'string' && /^[0-9a-f-]+$/i.test(r) && r.replaceAll('-', '').length >= MIN_ID_PART
  if (!Array.isArray(remove) || !remove.some(short)) return scenario
  const items = await client.recurring.list({ status: 'accepted' })
  const names = new Set(items.map((i) => i.name.toLowerCase()))
  const whole: unknown[] = []
  for (const r of remove) whole.push(short(r) && !names.has(r.toLowerCase()) ? await recurringItemId(client, r, '--scenario', items) : r)
  return { ...scenario, remove: whole as string[] }
}

export async function runForecast(host: VerbHost, o: ForecastOptions): Promise<number> {
  const days = wholeNumber(o.days, '--days', { min: 1, max: 1000 }) as number
  const threshold = typedAmount(o.failBelow, '--fail-below')
  if (threshold !== undefined && !/^[-+]?\d+(\.\d+)?$/.test(threshold))
    throw new AppError('usage', `--fail-below "${printableLine(o.failBelow ?? '')}" is not an amount`)
  const read = o.scenario === undefined ? undefined : await readScenario(o.scenario)
  const client = await host.client()
  const scenario = read === undefined ? undefined : await wholeIds(client, read)
  const printer = host.printer
  const r = await client.forecast.run({
    from: o.from,
    days,
    bank_account_id: o.account === undefined ? undefined : await resolveAccountId(client, o.account),
    version: o.budgetVersion ?? o.version,
    scenario,
    // Each day's items when they are printed: --items, or the rows off a terminal.
    items: o.items === true || printer.format === 'csv' || (!host.io.isStdoutTTY && !o.chart && printer.format === 'table'),
  })
  const below = (() => {
    if (threshold === undefined) return false
    const limit = minorOf(threshold, r.currency)
    if (limit === undefined) throw new AppError('usage', `--fail-below ${threshold}: more decimals than ${r.currency} has`)
    return (minorOf(r.lowest.balance, r.currency) ?? 0n) < limit
  })()
  const { io } = host
  const cur = r.currency
  const money = (n: number) => showAmount(n, cur, { group: true, code: true })
  if (printer.format === 'json' || printer.format === 'ndjson') await printRecord(io, printer, r)
  else if (printer.format === 'csv' || (!io.isStdoutTTY && !o.chart && !o.items)) {
    await printList(io, printer, r.days, [
      { header: 'date', value: (d) => d.date },
      { header: 'change', value: (d) => showAmount(d.change, cur) },
      { header: 'balance', value: (d) => showAmount(d.balance, cur) },
      { header: 'currency', value: () => cur },
      { header: 'items', value: (d) => d.items.map((i) => `${i.name} ${showAmount(i.amount, cur)}`).join('; ') },
    ])
  } else {
    // The terminal's width, or 80 when not a terminal.
    const columns = (io.isStdoutTTY ? (io.stdout as { columns?: number }).columns : undefined) ?? 80
    io.stdout.write(`Forecast ${r.from} .. ${r.to} (${r.days.length} days), ${cur}${r.bank_account_id ? ', one account' : ''}\n`)
    if (o.chart)
      io.stdout.write(
        lineChart(
          r.days.map((d) => ({ date: d.date, minor: minorOf(d.balance, cur) ?? 0n })),
          cur,
          columns,
        ),
      )
    if (o.items) {
      for (const d of r.days) {
        if (d.items.length === 0) continue
        for (const i of d.items) {
          const original = i.original
            ? ` (${showAmount(i.original.amount, i.original.currency, { group: true, code: true })}${i.estimate ? ', estimate' : ''})`
            : ''
          const flag = i.overdue ? ', overdue' : ''
          io.stdout.write(
            `${d.date}  ${showAmount(i.amount, cur, { group: true }).padStart(14)}  ${printableLine(i.name)} [${i.kind}${flag}]${original}\n`,
          )
        }
        io.stdout.write(`${d.date}  balance ${money(d.balance)}\n`)
      }
    }
    io.stdout.write(`starting balance  ${money(r.starting_balance)}\n`)
    io.stdout.write(`lowest balance    ${money(r.lowest.balance)} on ${r.lowest.date}\n`)
    io.stdout.write(`ending balance    ${money(r.ending_balance)} on ${r.to}\n`)
  }
  for (const n of r.notes) note(io, printer, `note: ${n}`)
  if (r.estimate) note(io, printer, `note: estimate: ${r.rates.map((x) => `${x.currency} at ${x.rate} (rate of ${x.date})`).join(', ')}`)
  if (below) {
    say(
      io,
      `the lowest balance, ${money(r.lowest.balance)} on ${r.lowest.date}, is below ${showAmount(threshold as string, cur, { group: true, code: true })}`,
    )
    return EXIT.notReady
  }
  return EXIT.ok
}
