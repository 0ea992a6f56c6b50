/**
 * finctl help [TOPIC | COMMAND...]: the help topics (exit-codes, environment) and the help of any
 * command by its words (`finctl help tx list`). It replaces commander's implicit help command.
 */
import type { Command } from 'commander'
import { AppError } from '../src/kernel/errors.js'
import { EXIT } from '../src/cli/exit-codes.js'
import type { Runner } from '../src/cli/runner.js'

const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: 'ok; an import: every transaction line of the file imported or already there',
  failure:
    'unexpected failure: an internal error, a 5xx answer; `finctl doctor` found a problem; a --jq filter that failed on the data, or ran past --jq-timeout or out of memory',
  usage:
    "usage error: a bad or missing flag or argument, or one that does not apply to the file's format; a confirmation refused, or needed (--yes) without a terminal",
  unauthenticated: 'not authenticated (HTTP 401): check the API key, or run `finctl login`',
  forbidden: 'forbidden (HTTP 403): the credential lacks a scope',
  notFound: 'not found (HTTP 404)',
  invalid:
    'validation error or conflict (HTTP 400, 409, 413, 415): the message names the field; an import that wrote nothing (--atomic, a statement with a line it cannot read, each line named)',
  rateLimited: 'rate limited (HTTP 429) after the retries (FINCTL_MAX_RETRIES), or asked to wait over a minute (tx import --wait)',
  partial: 'partial success: an import or bulk job where some rows failed (each named with its line and reason), the rest done',
  unsupportedNode: 'this Node.js is not a supported line (22.22.2+, 24.15+, 26): nothing was run',
  unreachable: 'cannot reach the target: connection refused, DNS, timeout, or a database that cannot be opened',
  database:
    'the database cannot take the command: locked by another process past the wait (FINCTL_BUSY_TIMEOUT_MS), full, damaged or read-only; the message names the file, `finctl doctor` checks it',
  notReady:
    '`close status`: the month is not ready to close (each open point listed); `close MONTH`: refused for that reason (--force closes anyway); `forecast --fail-below`: the lowest balance is below the amount',
  auditBroken: '`finctl verify`: the audit trail is broken, an entry changed, removed or inserted (the message names it)',
  webhookFailed: '`webhooks test`, `events resend`: a webhook endpoint did not answer 2xx (its answer or error printed)',
  proposed:
    "the step waits for approval: a write under an approval policy (close reopen, imports revert, bulk changes over the threshold, a key with a write scope, a deciding role, policy set), or any write made with an agent's key, became a proposal (its id printed; `finctl approvals show ID`), nothing changed yet",
  interrupted:
    'cancelled at a prompt (Ctrl-C), or stopped by Ctrl-C (SIGINT): a --jq filter, or a long command (tx import, statements upload, seed, export), which says what it did and how to go on',
  terminated: 'stopped by SIGTERM: a --jq filter, or a long command, as for 130',
}

function exitCodesText(): string {
  const rows = (Object.keys(EXIT) as Array<keyof typeof EXIT>).map((k) => `  ${String(EXIT[k]).padEnd(5)}${EXIT_MEANINGS[k]}`)
  return [
    'Exit codes of finctl (the same for every command, on the embedded and on a remote target):',
    '',
    ...rows,
    '',
    "`finctl api` exits by the answer's status with the same table (422 counts as 6, other 4xx as 1).",
    '',
  ].join('\n')
}

const ENVIRONMENT = [
  'Environment variables of finctl.',
  '',
  'Precedence for every setting: a flag wins over its variable, the variable over the profile, the',
  "profile over the default. --base-url / FINCTL_BASE_URL point at another target than the profile's:",
  "the profile's credentials are then not sent there (give FINCTL_API_KEY or FINCTL_TOKEN).",
  '',
  '  FINCTL_PROFILE      --profile    profile to use (default: the current one, `finctl profile use`, else "local")',
  '  FINCTL_BASE_URL     --base-url   URL of a remote finctl service',
  '  FINCTL_API_KEY      --api-key    API key (prefer the variable: a flag stays in shell history)',
  '  FINCTL_TOKEN        --token      access token (JWT) of `finctl login`; key administration uses it',
  '  FINCTL_DATABASE     --database   embedded target: SQLite file or postgres:// URL (also `init`, `serve`)',
  '  FINCTL_CONFIG_DIR                folder of profiles.json and mappings.json (mode 0700; files 0600)',
  '                                   default $XDG_CONFIG_HOME/finctl or ~/.config/finctl',
  '  FINCTL_DATA_DIR                  folder of the default embedded database (finctl.db); default',
  '                                   $XDG_DATA_HOME/finctl or ~/.local/share/finctl, or FINCTL_CONFIG_DIR when only that is set',
  '  FINCTL_MAX_RETRIES               how often a 429 (or a 503 of a locked database) is sent again after its Retry-After (default 3)',
  '  FINCTL_KEYRING                    "off": keep secrets in profiles.json, never in the OS keyring (as --insecure-storage)',
  '  FINCTL_BUSY_TIMEOUT_MS           how long a write waits for another process to let go of the SQLite file (default 10000)',
  '',
  'Also read: NO_COLOR (no colours), FORCE_COLOR (colours even off a terminal), CI (when set, never',
  'prompt, as --no-input), XDG_CONFIG_HOME, XDG_DATA_HOME.',
  '',
].join('\n')

export const HELP_TOPICS = [
  { name: 'exit-codes', summary: 'what each exit code means', text: exitCodesText },
  { name: 'environment', summary: 'the FINCTL_* variables and the precedence of settings', text: () => ENVIRONMENT },
]

export function registerHelpTopics(program: Command, run: Runner): void {
  program
    .command('help')
    .argument('[topic...]', `a topic (${HELP_TOPICS.map((t) => t.name).join(', ')}) or a command`)
    .description('help on a command, or on a topic: exit-codes, environment')
    .addHelpText('after', '\nExamples:\n  finctl help exit-codes\n  finctl help environment\n  finctl help tx list\n')
    .action(
      run(async (ctx, _o, words) => {
        if (words.length === 1) {
          const topic = HELP_TOPICS.find((t) => t.name === words[0])
          if (topic) {
            ctx.io.stdout.write(topic.text())
            return 0
          }
        }
        let cmd: Command = program
        for (const w of words) {
          const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w))
          if (!sub) {
            throw new AppError(
              'usage',
              `no help topic or command "${words.join(' ')}": topics are ${HELP_TOPICS.map((t) => t.name).join(', ')}; commands are listed by \`finctl --help\``,
            )
          }
          cmd = sub
        }
        cmd.outputHelp()
        return 0
      }),
    )
  program.addHelpText(
    'after',
    [
      '',
      'Help topics: finctl help exit-codes, finctl help environment',
      '',
      'Examples:',
      '  finctl init --demo',
      '  finctl tx list --from 2026-01-01 --output csv > transactions.csv',
      '  finctl --profile prod keys list',
      '',
    ].join('\n'),
  )
}
