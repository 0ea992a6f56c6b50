/** The typed calls of categorization rules (client.ts: `client.rules`; docs/categorization.md, "Rules"). */
import { categorizationRulesPaths } from '../api/paths.js'
import type { categorizationRulesApi } from '../api/routes/categorization-rules.js'
import type { CategorizationRule, RuleApplyResult } from '../domain/categorization/rule-schemas.js'
import { outcome } from './approvals.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type Rules = typeof categorizationRulesApi

/** `all`: every active rule in its order, instead of one rule's id. */
export const ALL_RULES = 'all'

export function ruleCalls(c: Sender) {
  const call = routeCalls<Rules>(c, categorizationRulesPaths)
  return {
    list: () => call('list').then((r) => r.data),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    /** The rule, or with an agent's key its proposal (docs/agents.md). */
    create: (body: RouteInput<Rules['create']>['body']) => call('create', { body }).then((r) => outcome<CategorizationRule>(r)),
    update: (id: string, body: RouteInput<Rules['update']>['body']) => call('update', { params: { id }, body }).then((r) => r.data),
    delete: (id: string) => call('delete', { params: { id } }).then((r) => r.data),
    /** One rule by its id, or `all` the active rules in their order. */
    test: (which: string, query: NonNullable<RouteInput<Rules['test']>['query']>) =>
      (which === ALL_RULES ? call('testAll', { query }) : call('test', { params: { id: which }, query })).then((r) => r.data),
    /** The run done, or under a bulk approval policy over its threshold its proposal. */
    apply: (which: string, body: RouteInput<Rules['apply']>['body']) =>
      (which === ALL_RULES ? call('applyAll', { body }) : call('apply', { params: { id: which }, body })).then((r) =>
        outcome<RuleApplyResult>(r),
      ),
  }
}
