/**
 * One request to the service of an in-process sandbox through `finctl api --include` (the
 * profile's key): the status and the parsed envelope, as `callApi` of test/helpers/cli.ts gives
 * them from a `finctl serve`. For set-up through the service's own endpoints (a batch of rows).
 */
import type { InProcessSandbox } from './in-process-cli.js'

export async function callApi(sb: InProcessSandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await sb.run(['api', method, path, '--include', ...(body === undefined ? [] : ['--data', '@-'])], {
    input: body === undefined ? undefined : JSON.stringify(body),
  })
  const status = /^HTTP (\d{3})/.exec(r.stderr)
  if (!status) throw new Error(`finctl api ${method} ${path} gave no status (exit ${r.code}):\n${r.stderr}`)
  return { status: Number(status[1]), body: JSON.parse(r.stdout) }
}
