/** finctl export check FILE [--xsd FILE]: a DATEV, SIE 4 or SAF-T file against its format's rules, each problem with its line. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { note, printJson } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { FORMAT_NAME } from '../../src/domain/exports/formats/format.js'

export interface CheckOptions {
  xsd?: string
}

export function registerCheck(exp: Command, run: Runner, runF: RunVerb<CheckOptions> = runCheck): void {
  exp
    .command('check')
    .description(
      "check a DATEV, SIE 4 or SAF-T file (finctl's or another program's) against its format's rules: each problem with its line",
    )
    .argument('<file>', 'the file; its format is told by its first bytes')
    .option(
      '--xsd <file>',
      "saft-no: also validate against this XSD, Skatteetaten's Norwegian_SAF-T_Financial_Schema_v_1.30.xsd (env FINCTL_SAFT_XSD)",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 no problem; 6 problems (each on stdout as FILE:LINE: what).\n\nExamples:\n  finctl export check EXTF_october.csv\n  finctl export check books-2026.se\n  finctl export check saft-2026.xml --xsd Norwegian_SAF-T_Financial_Schema_v_1.30.xsd\n',
    )
    .action(run(runF))
}

const UNITS = { datev: 'bookings', sie4: 'vouchers', 'saft-no': 'transactions' } as const

export async function runCheck(host: VerbHost, o: CheckOptions, [file]: string[]): Promise<number> {
  await requireInputFile(file)
  if (o.xsd !== undefined) await requireInputFile(o.xsd)
  const { checkFile } = await import('../../src/jobs/export/check.js')
  const r = await checkFile(file, { xsd: o.xsd ?? host.io.env.FINCTL_SAFT_XSD })
  const count = r.problems.length + (r.more ?? 0)
  if (host.printer.format === 'json') await printJson(host.io, host.printer, { file, ...r, problem_count: count })
  else {
    let out = ''
    for (const p of r.problems) out += `${printableLine(file)}:${p.line}: ${printableLine(p.message)}\n`
    if (r.more) out += `${printableLine(file)}: and ${r.more.toLocaleString('en-US')} more problems\n`
    host.io.stdout.write(out)
  }
  const what = `${printableLine(file)}: ${FORMAT_NAME[r.format]}, ${r.rows.toLocaleString('en-US')} ${UNITS[r.format]}; checked ${r.checks.join(', ')}`
  note(
    host.io,
    host.printer,
    count ? `${what}: ${count.toLocaleString('en-US')} ${count === 1 ? 'problem' : 'problems'}` : `${what}: no problem`,
  )
  return count ? EXIT.invalid : EXIT.ok
}
