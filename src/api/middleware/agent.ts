/**
 * An agent's key never writes (docs/agents.md): each of its writes is answered by agent-writes.ts, as a
 * proposal or a refusal, before any route sees it. Loaded only for an agent's write.
 */
import type { MiddlewareHandler } from 'hono'
import type { AppDeps, AppEnv } from '../env.js'
import type { Declared } from './scopes.js'

export function agentGate(deps: AppDeps, declared: Declared): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('actor').agent || c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const { answerAgentWrite } = await import('../agent-writes.js')
    const answer = await answerAgentWrite(c, deps, declared, next)
    if (answer) return answer
  }
}
