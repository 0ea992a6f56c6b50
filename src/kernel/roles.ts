/**
 * Roles: named sets of the scopes of `vocabulary.ts`, the one table docs/people.md describes. A
 * login carries its role's scopes; the middleware checks scopes, never role names.
 */
import type { Scope } from './vocabulary.js'

export const ROLES = ['owner', 'accountant', 'bookkeeper', 'auditor', 'viewer'] as const
export type Role = (typeof ROLES)[number]

export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  owner: ['read', 'write', 'transactions', 'api_keys', 'close', 'webhooks', 'users', 'reports'],
  accountant: ['read', 'close', 'reports'],
  bookkeeper: ['read', 'write', 'transactions', 'reports'],
  auditor: ['read', 'reports'],
  viewer: ['reports'],
}

export function isRole(s: string): s is Role {
  return (ROLES as readonly string[]).includes(s)
}

/** A role's scopes; an unknown role (a row written by hand) has none. */
export function scopesOfRole(role: string): readonly Scope[] {
  return isRole(role) ? ROLE_SCOPES[role] : []
}

/** `read` reads everything, the reports too: `reports` is the part of it a viewer has. */
const covers = (held: readonly string[], s: string) => held.includes(s) || (s === 'reports' && held.includes('read'))

/** The scopes of `wanted` that `held` lacks: empty when `wanted` is no wider. */
export function scopesBeyond(wanted: readonly string[], held: readonly string[]): string[] {
  return [...new Set(wanted.filter((s) => !covers(held, s)))]
}

/** The scopes of `wanted` that `held` covers: a key's scopes as its creator's role allows them today. */
export function scopesWithin<S extends string>(wanted: readonly S[], held: readonly string[]): S[] {
  return wanted.filter((s) => covers(held, s))
}
