/** Schemas of authentication (POST /auth/token) and API keys (docs/service-interface.md sections 2.1, 2.2; docs/api.md section 3). */
import { z } from '@hono/zod-openapi'
import { API_KEY_SCOPES } from '../../kernel/vocabulary.js'
import { Timestamp, text } from '../schema-common.js'

// ---- auth -----------------------------------------------------------------------------------

export const TokenRequest = z
  .object({ email: z.string().trim().min(1, 'is required').max(320), password: z.string().min(1, 'is required').max(1024) })
  .openapi('TokenRequest')

export const TokenResponse = z
  .object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), scopes: z.array(z.string()) })
  .openapi('TokenResponse')

// ---- API keys -------------------------------------------------------------------------------

export const ApiScope = z.enum(API_KEY_SCOPES).openapi('ApiScope')

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    key_prefix: z.string(),
    scopes: z.array(ApiScope),
    description: z.string(),
    last_used_at: Timestamp.nullable(),
    usage_count: z.number().int(),
    rate_limit_per_minute: z.number().int(),
    rate_limit_per_day: z.number().int(),
    is_active: z.boolean(),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    created_at: Timestamp,
    created_by: z.string(),
    rolled_to: z.string().nullable().openapi({ description: 'the successor, when this key was rolled' }),
    rolled_from: z.string().nullable().openapi({ description: 'the key this one was rolled from' }),
    grace_ends_at: Timestamp.nullable().openapi({ description: 'a rolled key: when it stops working (it is then revoked)' }),
    agent: z.boolean().openapi({
      description: "an agent's key: every write made with it is a proposal a person approves, and it never approves (docs/agents.md)",
    }),
  })
  .openapi('ApiKey')
export type ApiKey = z.infer<typeof ApiKey>

export const CreatedApiKey = ApiKey.extend({ key: z.string() }).openapi('CreatedApiKey')
export type CreatedApiKey = z.infer<typeof CreatedApiKey>

export const CreateApiKeyRequest = z
  .object({
    name: text(100).min(1, 'is required'),
    scopes: z.array(ApiScope).min(1, 'give at least one scope').max(4),
    description: text(500).optional(),
    expires_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).nullable().optional(),
    rate_limit_per_minute: z.number().int().min(1).max(1_000_000).optional(),
    rate_limit_per_day: z.number().int().min(1).max(100_000_000).optional(),
    agent: z
      .boolean()
      .optional()
      .openapi({ description: "true: an agent's key, whose every write is a proposal and which never approves (docs/agents.md)" }),
  })
  .strict()
  .openapi('CreateApiKeyRequest')
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>

export const RollApiKeyRequest = z
  .object({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 60 * 60, 'must be at most 604800 (7 days)')
      .optional()
      .openapi({ description: 'how long the old key keeps working (default 3600; 0 revokes it at once)' }),
  })
  .strict()
  .openapi('RollApiKeyRequest')
export type RollApiKeyRequest = z.infer<typeof RollApiKeyRequest>

export const RolledApiKey = z.object({ key: CreatedApiKey, previous: ApiKey }).openapi('RolledApiKey')
export type RolledApiKey = z.infer<typeof RolledApiKey>

export const KeyListQuery = z.object({
  status: z.enum(['active', 'revoked', 'expired', 'all']).optional(),
})

export const UsageQuery = z.object({
  key_id: z.string().optional(),
  recent: z.coerce.number().int().min(1).max(100).optional(),
})

export const RecentRequest = z.object({
  endpoint: z.string(),
  method: z.string(),
  status_code: z.number().int(),
  response_time_ms: z.number().int(),
  created_at: Timestamp,
})

export const UsageStats = z
  .object({
    total_requests: z.number().int(),
    last_used_at: Timestamp.nullable(),
    last_24h_requests: z.number().int(),
    avg_response_time_ms: z.number().int(),
    endpoints: z.record(z.string(), z.number().int()),
    status_codes: z.record(z.string(), z.number().int()),
    recent_requests: z.array(RecentRequest),
  })
  .openapi('UsageStats')
export type UsageStats = z.infer<typeof UsageStats>
