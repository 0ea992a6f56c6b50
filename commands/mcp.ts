/** finctl mcp: the MCP server for AI agents on stdio, over this profile's target and credential (docs/agents.md). */
import type { Command } from 'commander'
import { EXIT } from '../src/cli/exit-codes.js'
import type { RunVerb, Runner, VerbHost } from '../src/cli/runner.js'

export interface McpOptions {
  files?: string
}

export function registerMcp(program: Command, run: Runner, runF: RunVerb<McpOptions> = runMcp): void {
  program
    .command('mcp')
    .description(
      "serve the MCP tools for an AI agent on stdin and stdout: read tools, and write tools that only propose (an agent's key: keys create --agent)",
    )
    .option('--files <dir>', 'the folder propose_import may read CSV files from (else CSV text only)')
    .addHelpText(
      'after',
      '\nAn MCP client starts it: docs/agents.md has a configuration. stdout carries the protocol; messages go to stderr.\n' +
        '\nExamples:\n  finctl --profile agent mcp --files ~/Downloads/bank\n  FINCTL_API_KEY=fds_... finctl mcp\n',
    )
    .action(run(runF))
}

export async function runMcp(host: VerbHost, o: McpOptions): Promise<number> {
  const client = await host.client()
  const { serveStdio } = await import('../src/mcp/stdio.js')
  await serveStdio({
    client,
    stdin: host.io.stdin,
    stdout: host.io.stdout,
    files: o.files,
    ready: (agent) =>
      host.io.stderr.write(
        agent
          ? 'finctl MCP server on stdio: the write tools propose, as this agent key\n'
          : "finctl MCP server on stdio: read tools only (the write tools propose with an agent's key: finctl keys create --agent)\n",
      ),
  })
  return EXIT.ok
}
