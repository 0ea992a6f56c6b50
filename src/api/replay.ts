/**
 * An agent's approved request, sent again through the app as its approver (docs/agents.md, "Any
 * other write"): the same routing, scopes, validation and limits as any request, its credential the
 * approver's. Only this process can name an actor for a request (a WeakMap keyed by the Request
 * object itself): nothing that comes over a socket or a transport reaches it.
 */
import type { Actor } from '../domain/actor.js'
import type { Replay } from '../domain/approvals/step-types.js'
import { checkedAtFirstWrite } from '../kernel/first-write.js'

const approvers = new WeakMap<Request, Actor>()

/** The actor a replayed request acts as, or undefined for every other request. */
export const replayedAs = (request: Request): Actor | undefined => approvers.get(request)

/** Replays through `fetch` (the app's own), `check` run inside the request's first write transaction. */
export function replayer(fetch: (request: Request) => Response | Promise<Response>): Replay {
  return async (asked, actor, check) => {
    const headers = new Headers()
    if (asked.content_type) headers.set('content-type', asked.content_type)
    const body =
      asked.body === null ? undefined : 'json' in asked.body ? JSON.stringify(asked.body.json) : Buffer.from(asked.body.base64, 'base64')
    const request = new Request(`http://finctl.replay${asked.path}${asked.query}`, { method: asked.method, headers, body })
    approvers.set(request, actor)
    const { value: response } = await checkedAtFirstWrite(check as (trx: unknown) => Promise<void>, async () => fetch(request))
    const text = await response.text()
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {}
    return { status: response.status, body: json }
  }
}
