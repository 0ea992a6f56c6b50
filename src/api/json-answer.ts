/**
 * A JSON answer whose value may reach an in-process caller as it is. On the embedded transport the
 * client is in this process: writing a list page as text only for the client to parse it back
 * was a large share of a long walk's time (docs/performance.md, "`tx list --all` beside the store"). A route
 * whose answer is plain JSON data (objects, arrays, strings, finite numbers, booleans, null, no
 * undefined) may answer through {@link jsonAnswer}: on the embedded transport (its env gives the
 * Response to build) the response keeps the value and writes its text only if someone reads it as
 * text; elsewhere it is `c.json`. The routing, authentication, limits and usage records are the same either way.
 */
import type { Context } from 'hono'

/** A response body that is a JSON value, its text written on demand (embedded/in-process.ts). */
export class JsonValueBody {
  constructor(readonly value: unknown) {}

  text(): string {
    return JSON.stringify(this.value)
  }
}

/** What the embedded transport hands the app beside the request (`app.fetch(req, env)`). */
export interface ValueAnswerEnv {
  /** A Response that keeps a {@link JsonValueBody} as it is (embedded/in-process.ts LiteResponse). */
  valueResponse?: (body: JsonValueBody, init: { status: number; headers: Headers }) => Response
}

/** `json(body)` (the route's `c.json`), or on the embedded transport the same answer with `body` kept as it is. */
export function jsonAnswer<B extends object, R>(c: Context, body: B, json: (body: B) => R): R {
  const valueResponse = (c.env as ValueAnswerEnv | undefined)?.valueResponse
  if (!valueResponse) return json(body)
  // The headers and status c.json would answer with (the limits', the request id), on a body kept as a value.
  const head = c.body(null, 200, { 'content-type': 'application/json' })
  return valueResponse(new JsonValueBody(body), { status: head.status, headers: head.headers }) as R
}
