/** The embedded transport: the server core in this process, on a SQLite file (or a PostgreSQL URL). No socket. */
import { openCore, type Core, type CoreOptions } from '../core.js'
import { InProcessRequest, LiteResponse, bodyText, type InProcessBody } from './in-process.js'
import type { ValueAnswerEnv } from '../api/json-answer.js'
import type { FetchLike } from '../client/client.js'

export { useLiteWebClasses } from './in-process.js'
export { EMBEDDED_BASE_URL } from '../client/client.js'

export interface EmbeddedTransport {
  fetch: FetchLike
  core: Core
  close(): Promise<void>
}

const valueResponse: ValueAnswerEnv['valueResponse'] = (body, init) => new LiteResponse(body, init) as unknown as Response

export async function openEmbedded(database: string, opts: CoreOptions = {}): Promise<EmbeddedTransport> {
  // One CLI command makes few requests: usage records are written at close, or a quarter second
  // after they are made when the command runs longer (the request log shows them: docs/logs.md).
  const core = await openCore(database, { usageBeforeAnswer: false, usageLaterMs: 250, ...opts })
  // A command may stop (Ctrl-C in `logs tail`) with a request still in the app: the store closes after it.
  const inFlight = new Set<Promise<unknown>>()
  let closed = false
  return {
    core,
    // No web Request: url, method and headers, with the body beside them (see in-process.ts).
    fetch: async (url, init) => {
      // After close the store is gone: refused here, as a closed socket would be, not a 500 from the app.
      if (closed) throw new Error('the embedded core is closed')
      const embeddedBody = bodyText(init.body as InProcessBody)
      const req = new InProcessRequest(url, { method: init.method, headers: init.headers as Record<string, string> })
      // A list page's value reaches the client as the app made it (api/json-answer.ts).
      const env: ValueAnswerEnv & { embeddedBody: string } = { embeddedBody, valueResponse }
      const answer = Promise.resolve(core.app.fetch(req as unknown as Request, env) as Response | Promise<Response>)
      inFlight.add(answer)
      try {
        return await answer
      } finally {
        inFlight.delete(answer)
      }
    },
    close: async () => {
      closed = true
      // Long polls answer at once, then every request ends before the store goes.
      await core.usage.release()
      await Promise.allSettled([...inFlight])
      await core.close()
    },
  }
}
