/** API keys (docs/api.md section 3). Key administration needs a JWT with the api_keys scope. */
import { createRoute, z } from '@hono/zod-openapi'
import { DEFAULT_ROLL_GRACE_SECONDS, findApiKey, listApiKeys, requireJwtScope, revokeApiKey, toApiKey } from '../../domain/api-keys/keys.js'
import { AppError } from '../../kernel/errors.js'
import {
  ApiKey,
  CreateApiKeyRequest,
  CreatedApiKey,
  KeyListQuery,
  RolledApiKey,
  RollApiKeyRequest,
  UsageQuery,
  UsageStats,
} from '../../domain/api-keys/schemas.js'
import { IdParam, envelope } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, loginAccepts, ANY_CREDENTIAL } from '../openapi.js'
import { doneOrProposed, PROPOSED_KEY } from '../proposed.js'
import { apiKeysPaths } from '../paths.js'

// A key's creation (and the approval policy it reads) and usage statistics load their code on use:
// this group is on the path of every `keys show` and `whoami` (docs/performance.md "Start-up guards").
const keyRequest = () => import('../../domain/approvals/key-request.js')
const usageStatsOf = () => import('../../domain/api-keys/usage-stats.js')

const DEFAULT_RECENT = 20

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const apiKeysApi = {
  me: createRoute({
    ...apiKeysPaths.me,
    summary: 'Details of the API key that authenticates this request',
    security: ANY_CREDENTIAL,
    responses: { 200: ok(envelope(ApiKey)), 400: ERRORS[400], 401: ERRORS[401] },
  }),
  myUsage: createRoute({
    ...apiKeysPaths.myUsage,
    summary: 'Usage statistics of the calling key (or, with a JWT, of ?key_id=)',
    security: ANY_CREDENTIAL,
    request: { query: UsageQuery },
    responses: { 200: ok(envelope(UsageStats)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  list: createRoute({
    ...apiKeysPaths.list,
    summary: 'List all API keys of the company',
    security: loginAccepts('api_keys'),
    request: { query: KeyListQuery },
    responses: { 200: ok(envelope(z.array(ApiKey))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  create: createRoute({
    ...apiKeysPaths.create,
    summary:
      'Create an API key; the full key is in the response, once. Under a key-write approval policy a key with a write scope is a proposal (202), its key shown to the proposer alone',
    security: loginAccepts('api_keys'),
    request: { body: jsonBody(CreateApiKeyRequest) },
    responses: {
      201: ok(envelope(CreatedApiKey), 'Created'),
      202: PROPOSED_KEY,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
    },
  }),
  revoke: createRoute({
    ...apiKeysPaths.revoke,
    summary: 'Revoke an API key (revoking again returns the same record)',
    security: loginAccepts('api_keys'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(ApiKey)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  roll: createRoute({
    ...apiKeysPaths.roll,
    summary:
      'Roll an API key: a successor with the same name, scopes and limits (its key shown once); the old key works until its grace ends. Under a key-write approval policy the roll of a key with a write scope is a proposal (202), its key shown to the proposer alone',
    security: loginAccepts('api_keys'),
    request: { params: IdParam, body: jsonBody(RollApiKeyRequest) },
    responses: {
      201: ok(envelope(RolledApiKey), 'Created'),
      202: PROPOSED_KEY,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  usage: createRoute({
    ...apiKeysPaths.usage,
    summary: 'Usage statistics of one key',
    security: loginAccepts('api_keys'),
    request: { params: IdParam, query: UsageQuery.pick({ recent: true }) },
    responses: { 200: ok(envelope(UsageStats)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function apiKeyRoutes(deps: AppDeps) {
  const { store, usage, now } = deps
  return router()
    .openapi(apiKeysApi.me, async (c) => {
      const key = c.get('apiKey')
      if (!key) throw new AppError('validation_error', 'no API key in this request: send it in X-API-Key')
      await usage.settle()
      return c.json({ success: true as const, data: toApiKey(await findApiKey(store, key.company_id, key.id), now()) }, 200)
    })
    .openapi(apiKeysApi.myUsage, async (c) => {
      const q = c.req.valid('query')
      const actor = c.get('actor')
      const own = c.get('apiKey')
      let keyRow: NonNullable<typeof own>
      if (own) keyRow = own
      else {
        if (!q.key_id)
          throw new AppError('validation_error', 'with an access token, name the key whose usage to show in `key_id`', {
            details: [{ path: 'key_id', message: 'is required with an access token' }],
          })
        requireJwtScope(actor, 'api_keys')
        keyRow = await findApiKey(store, actor.companyId, q.key_id)
      }
      await usage.settle()
      const { usageStats } = await usageStatsOf()
      return c.json({ success: true as const, data: await usageStats(store, keyRow, q.recent ?? DEFAULT_RECENT, now()) }, 200)
    })
    .openapi(apiKeysApi.list, async (c) => {
      const actor = c.get('actor')
      requireJwtScope(actor, 'api_keys')
      await usage.settle()
      const data = await listApiKeys(store, actor.companyId, c.req.valid('query').status ?? 'all', now())
      return c.json({ success: true as const, data }, 200)
    })
    .openapi(apiKeysApi.create, async (c) => {
      const actor = c.get('actor')
      requireJwtScope(actor, 'api_keys')
      const { requestKeyCreate } = await keyRequest()
      const r = await requestKeyCreate(store, actor, c.req.valid('json'), now())
      c.header('Cache-Control', 'no-store')
      return doneOrProposed(c, r, 201)
    })
    .openapi(apiKeysApi.revoke, async (c) => {
      const actor = c.get('actor')
      requireJwtScope(actor, 'api_keys')
      await usage.flush()
      return c.json({ success: true as const, data: await revokeApiKey(store, actor, c.req.valid('param').id, now()) }, 200)
    })
    .openapi(apiKeysApi.roll, async (c) => {
      const actor = c.get('actor')
      requireJwtScope(actor, 'api_keys')
      const grace = c.req.valid('json').grace_seconds ?? DEFAULT_ROLL_GRACE_SECONDS
      const { requestKeyRoll } = await keyRequest()
      const r = await requestKeyRoll(store, actor, c.req.valid('param').id, grace, now())
      c.header('Cache-Control', 'no-store')
      return doneOrProposed(c, r, 201)
    })
    .openapi(apiKeysApi.usage, async (c) => {
      const actor = c.get('actor')
      requireJwtScope(actor, 'api_keys')
      const keyRow = await findApiKey(store, actor.companyId, c.req.valid('param').id)
      await usage.settle()
      const { usageStats } = await usageStatsOf()
      const data = await usageStats(store, keyRow, c.req.valid('query').recent ?? DEFAULT_RECENT, now())
      return c.json({ success: true as const, data }, 200)
    })
}
