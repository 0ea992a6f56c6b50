/**
 * `--version NAME` of the commands that read budgets (`budgets ...`, `reports budget`, `forecast`):
 * finctl's own `--version` (print the version) is a global flag commander takes wherever it stands,
 * so after one of those commands the word is handed on as `--budget-version`, the option they read
 * (docs/decisions.md, "--version of a budget").
 */
const TAKERS = new Set(['budgets', 'forecast'])

/** `argv` with a budget reader's `--version` renamed; `i` is where the command's word is (program.ts commandWordIndex). */
export function budgetVersionArgs(argv: string[], i: number | undefined): string[] {
  if (i === undefined) return argv
  const takes = TAKERS.has(argv[i]) || (argv[i] === 'reports' && argv[i + 1] === 'budget')
  if (!takes) return argv
  return argv.map((a, j) =>
    j <= i ? a : a === '--version' ? '--budget-version' : a.startsWith('--version=') ? `--budget-version=${a.slice(10)}` : a,
  )
}
