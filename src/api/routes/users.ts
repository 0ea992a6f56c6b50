/** People (docs/people.md): who am I, the company's users, invitations, roles, disabling. */
import { createRoute, z } from '@hono/zod-openapi'
import { disableUser, listUsers, whoami } from '../../domain/users/users.js'
import {
  CreatedInvitation,
  InvitationListQuery,
  InvitationStatus,
  InviteRequest,
  SetRoleRequest,
  User,
  Whoami,
} from '../../domain/users/schemas.js'
import { listInvitations, revokeInvitation } from '../../domain/users/invitations.js'
import { envelope, IdParam } from '../../domain/schema-common.js'
import type { Role } from '../../kernel/roles.js'
import type { AppDeps } from '../env.js'
import { JWT_SCOPES } from '../../kernel/vocabulary.js'
import { ERRORS, jsonBody, ok, router, accepts, loginAccepts } from '../openapi.js'
import { doneOrProposed, PROPOSED, PROPOSED_INVITATION } from '../proposed.js'
import { usersPaths } from '../paths.js'

// Inviting and role changes may be held back by an approval policy: that code loads with the first of them,
// not with each `whoami` (docs/performance.md "Start-up guards").
const peopleRequest = () => import('../../domain/approvals/people-request.js')

const UserRef = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: "the user's id or email" }),
})

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const usersApi = {
  me: createRoute({
    ...usersPaths.me,
    summary: 'The credential in use: its user (a key: its creator), role and scopes',
    security: accepts(...JWT_SCOPES),
    responses: { 200: ok(envelope(Whoami)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  list: createRoute({
    ...usersPaths.list,
    summary: "The company's users, their roles and whether they are disabled",
    security: accepts('read', 'users'),
    responses: { 200: ok(envelope(z.array(User))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  invite: createRoute({
    ...usersPaths.invite,
    summary:
      'Invite someone with a role; the token is in the response, once (scope users). Under an approval policy, inviting to a role that can approve is a proposal (202), its token shown to the proposer alone',
    security: loginAccepts('users'),
    request: { body: jsonBody(InviteRequest) },
    responses: {
      201: ok(envelope(CreatedInvitation), 'Created'),
      202: PROPOSED_INVITATION,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      409: ERRORS[409],
    },
  }),
  invitations: createRoute({
    ...usersPaths.invitations,
    summary: 'Invitations: the pending ones with their expiry (all=true: accepted, revoked, expired too); never a token (read or users)',
    security: accepts('read', 'users'),
    request: { query: InvitationListQuery },
    responses: { 200: ok(envelope(z.array(InvitationStatus))), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  revokeInvite: createRoute({
    ...usersPaths.revokeInvite,
    summary: 'Revoke a pending invitation: its token can no longer be accepted (scope users); 409 when accepted, revoked or expired',
    security: loginAccepts('users'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(InvitationStatus)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404], 409: ERRORS[409] },
  }),
  setRole: createRoute({
    ...usersPaths.setRole,
    summary:
      "Change a user's role (scope users; never to a role wider than your own). Under an approval policy, giving a role that can approve is a proposal (202)",
    security: loginAccepts('users'),
    request: { params: UserRef, body: jsonBody(SetRoleRequest) },
    responses: {
      200: ok(envelope(User)),
      202: PROPOSED,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  disable: createRoute({
    ...usersPaths.disable,
    summary: 'Disable a user: their logins and access tokens are refused from the next request (scope users)',
    security: loginAccepts('users'),
    request: { params: UserRef },
    responses: { 200: ok(envelope(User)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404], 409: ERRORS[409] },
  }),
}

export function userRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(usersApi.me, async (c) => c.json({ success: true as const, data: await whoami(store, c.get('actor')) }, 200))
    .openapi(usersApi.list, async (c) => c.json({ success: true as const, data: await listUsers(store, c.get('actor').companyId) }, 200))
    .openapi(usersApi.invite, async (c) => {
      const { requestInvite } = await peopleRequest()
      const r = await requestInvite(store, c.get('actor'), c.req.valid('json'), now())
      c.header('Cache-Control', 'no-store')
      return doneOrProposed(c, r, 201)
    })
    .openapi(usersApi.invitations, async (c) =>
      c.json({ success: true as const, data: await listInvitations(store, c.get('actor'), c.req.valid('query').all, now()) }, 200),
    )
    .openapi(usersApi.revokeInvite, async (c) =>
      c.json({ success: true as const, data: await revokeInvitation(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
    .openapi(usersApi.setRole, async (c) => {
      const { role } = c.req.valid('json')
      const { requestSetRole } = await peopleRequest()
      const r = await requestSetRole(store, c.get('actor'), c.req.valid('param').id, role as Role, now())
      return doneOrProposed(c, r)
    })
    .openapi(usersApi.disable, async (c) =>
      c.json({ success: true as const, data: await disableUser(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
}
