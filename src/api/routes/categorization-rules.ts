/** Categorization rules: a company's ordered rules, and running one, or all in order, over existing transactions. */
import { createRoute } from '@hono/zod-openapi'
import { createRule, deleteRule, getRule, listRules, updateRule } from '../../domain/categorization/rules.js'
import { testRule } from '../../domain/transactions/rule-runs.js'
import {
  CategorizationRule,
  CreateRuleRequest,
  RuleApplyRequest,
  RuleApplyResult,
  RuleTestQuery,
  RuleTestResult,
  UpdateRuleRequest,
} from '../../domain/categorization/rule-schemas.js'
import { Deleted, IdParam, envelope, listEnvelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { doneOrProposed, PROPOSED } from '../proposed.js'
import { categorizationRulesPaths } from '../paths.js'

/** A run's code under a policy (the proposals, every step they apply) loads with the first run, not with each rule read. */
const ruleStep = () => import('../../domain/approvals/rule-request.js')

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const categorizationRulesApi = {
  list: createRoute({
    ...categorizationRulesPaths.list,
    summary: "List the company's categorization rules in the order they run",
    security: accepts('read'),
    responses: { 200: ok(listEnvelope(CategorizationRule)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  create: createRoute({
    ...categorizationRulesPaths.create,
    summary:
      "Create a rule (last, or at `position`: later rules move down); an agent's key proposes it with the rows it would change (202; docs/agents.md)",
    security: accepts('write'),
    request: { body: jsonBody(CreateRuleRequest) },
    responses: {
      201: ok(envelope(CategorizationRule), 'Created'),
      202: PROPOSED,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  testAll: createRoute({
    ...categorizationRulesPaths.testAll,
    summary: 'Which non-void transactions since a date the active rules, in their order, would change, changing nothing',
    security: accepts('read'),
    request: { query: RuleTestQuery },
    responses: { 200: ok(envelope(RuleTestResult)), 400: ERRORS[400] },
  }),
  applyAll: createRoute({
    ...categorizationRulesPaths.applyAll,
    summary:
      'Run the active rules in their order over existing transactions, through the audited bulk update; under a bulk approval policy, a run changing more rows than its threshold is a proposal (202)',
    security: accepts('write'),
    request: { body: { ...jsonBody(RuleApplyRequest), required: false } },
    responses: { 200: ok(envelope(RuleApplyResult)), 202: PROPOSED, 400: ERRORS[400], 409: ERRORS[409] },
  }),
  get: createRoute({
    ...categorizationRulesPaths.get,
    summary: 'A categorization rule',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(CategorizationRule)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  update: createRoute({
    ...categorizationRulesPaths.update,
    summary: 'Change a rule: name, position (moves it), conditions or actions (replaced whole), is_active',
    security: accepts('write'),
    request: { params: IdParam, body: jsonBody(UpdateRuleRequest) },
    responses: { 200: ok(envelope(CategorizationRule)), 400: ERRORS[400], 404: ERRORS[404] },
  }),
  delete: createRoute({
    ...categorizationRulesPaths.delete,
    summary: 'Delete a rule (later rules move up)',
    security: accepts('write'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Deleted)), 404: ERRORS[404] },
  }),
  test: createRoute({
    ...categorizationRulesPaths.test,
    summary: 'Which non-void transactions since a date the rule would change, changing nothing',
    security: accepts('read'),
    request: { params: IdParam, query: RuleTestQuery },
    responses: { 200: ok(envelope(RuleTestResult)), 400: ERRORS[400], 404: ERRORS[404] },
  }),
  apply: createRoute({
    ...categorizationRulesPaths.apply,
    summary:
      'Change the transactions the rule would change, through the audited bulk update; under a bulk approval policy, more rows than its threshold are a proposal (202)',
    security: accepts('write'),
    request: { params: IdParam, body: { ...jsonBody(RuleApplyRequest), required: false } },
    responses: { 200: ok(envelope(RuleApplyResult)), 202: PROPOSED, 400: ERRORS[400], 404: ERRORS[404], 409: ERRORS[409] },
  }),
}

export function categorizationRuleRoutes(deps: AppDeps) {
  const { store, now } = deps
  return (
    router()
      .openapi(categorizationRulesApi.list, async (c) => {
        const data = await listRules(store, c.get('actor').companyId)
        // At most 1,000 rules: one page holds them all.
        const pagination = { limit: Math.max(data.length, 1), next_cursor: null, has_more: false, total: data.length }
        return c.json({ success: true as const, data, pagination }, 200)
      })
      .openapi(categorizationRulesApi.create, async (c) =>
        c.json({ success: true as const, data: await createRule(store, c.get('actor'), c.req.valid('json'), now()) }, 201),
      )
      // Before the routes of one rule: `test` and `apply` are no rule's id.
      .openapi(categorizationRulesApi.testAll, async (c) =>
        c.json({ success: true as const, data: await testRule(store, c.get('actor'), 'all', c.req.valid('query'), now()) }, 200),
      )
      .openapi(categorizationRulesApi.applyAll, async (c) =>
        doneOrProposed(c, await (await ruleStep()).requestRuleApply(store, c.get('actor'), 'all', c.req.valid('json') ?? {}, now())),
      )
      .openapi(categorizationRulesApi.get, async (c) =>
        c.json({ success: true as const, data: await getRule(store, c.get('actor').companyId, c.req.valid('param').id) }, 200),
      )
      .openapi(categorizationRulesApi.update, async (c) =>
        c.json(
          { success: true as const, data: await updateRule(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now()) },
          200,
        ),
      )
      .openapi(categorizationRulesApi.delete, async (c) =>
        c.json({ success: true as const, data: await deleteRule(store, c.get('actor'), c.req.valid('param').id) }, 200),
      )
      .openapi(categorizationRulesApi.test, async (c) =>
        c.json(
          {
            success: true as const,
            data: await testRule(store, c.get('actor'), { id: c.req.valid('param').id }, c.req.valid('query'), now()),
          },
          200,
        ),
      )
      .openapi(categorizationRulesApi.apply, async (c) => {
        const { requestRuleApply } = await ruleStep()
        return doneOrProposed(
          c,
          await requestRuleApply(store, c.get('actor'), { id: c.req.valid('param').id }, c.req.valid('json') ?? {}, now()),
        )
      })
  )
}
