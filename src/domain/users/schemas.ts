/** Schemas of people: users, their roles, invitations (docs/people.md). */
import { z } from '@hono/zod-openapi'
import { ROLES } from '../../kernel/roles.js'
import { TokenResponse } from '../api-keys/schemas.js'
import { Timestamp } from '../schema-common.js'

export const UserRole = z
  .string()
  .trim()
  .refine((s) => (ROLES as readonly string[]).includes(s), `must be one of ${ROLES.join(', ')}`)
  .openapi('UserRole', { enum: [...ROLES] })

export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.string(),
    scopes: z.array(z.string()).openapi({ description: "the role's scopes (docs/people.md)" }),
    created_at: Timestamp,
    disabled_at: Timestamp.nullable(),
  })
  .openapi('User')
export type User = z.infer<typeof User>

export const Whoami = z
  .object({
    credential: z.enum(['access_token', 'api_key']),
    user: User.nullable().openapi({ description: "the login's user, or the key's creator" }),
    scopes: z.array(z.string()).openapi({ description: 'what this credential may do now' }),
  })
  .openapi('Whoami')
export type Whoami = z.infer<typeof Whoami>

export const InviteRequest = z
  .object({
    email: z.string().trim().toLowerCase().min(3, 'is required').max(320).includes('@', { message: 'must be an email address' }),
    role: UserRole,
  })
  .strict()
  .openapi('InviteRequest')
export type InviteRequest = z.infer<typeof InviteRequest>

export const Invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.string(),
    invited_by: z.string(),
    created_at: Timestamp,
    expires_at: Timestamp,
  })
  .openapi('Invitation')
export type Invitation = z.infer<typeof Invitation>

export const CreatedInvitation = Invitation.extend({
  token: z.string().openapi({ description: 'shown once: `finctl login --invite TOKEN` accepts it' }),
  replaced: z
    .array(z.string())
    .openapi({ description: 'the pending invitations for the same email this one replaces: their tokens no longer work' }),
}).openapi('CreatedInvitation')
export type CreatedInvitation = z.infer<typeof CreatedInvitation>

export const InvitationState = z.enum(['pending', 'accepted', 'revoked', 'expired'])

/** An invitation as `users invitations` lists it: its state and what became of it, never its token. */
export const InvitationStatus = Invitation.extend({
  state: InvitationState,
  accepted_at: Timestamp.nullable(),
  user_id: z.string().nullable().openapi({ description: 'the user who accepted it' }),
  revoked_at: Timestamp.nullable(),
  revoked_by: z.string().nullable(),
}).openapi('InvitationStatus')
export type InvitationStatus = z.infer<typeof InvitationStatus>

export const InvitationListQuery = z
  .object({
    all: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .openapi({ type: 'string', description: 'true: accepted, revoked and expired ones too (default: pending only)' }),
  })
  .strict()

export const AcceptInvitationRequest = z
  .object({ token: z.string().trim().min(1, 'is required').max(200), password: z.string().min(1, 'is required').max(1024) })
  .strict()
  .openapi('AcceptInvitationRequest')

export const SetRoleRequest = z.object({ role: UserRole }).strict().openapi('SetRoleRequest')

export const AcceptedInvitation = TokenResponse.extend({ user: User }).openapi('AcceptedInvitation')
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>
