/** What the verbs of `finctl users` share: the table's columns and the check of --role. */
import { idColumn } from '../../src/cli/columns.js'
import type { Column } from '../../src/cli/output.js'
import type { User } from '../../src/domain/users/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { ROLES, type Role, isRole } from '../../src/kernel/roles.js'

export const userColumns: Column<User>[] = [
  idColumn((u) => u.id),
  { header: 'email', value: (u) => u.email },
  { header: 'role', value: (u) => u.role },
  { header: 'status', value: (u) => (u.disabled_at ? 'disabled' : 'active') },
  { header: 'created', value: (u) => u.created_at.slice(0, 10), drop: 2 },
]

/** --role, one of the roles of docs/people.md. */
export function roleFlag(value: string | undefined): Role {
  if (value === undefined || value.trim() === '') throw new AppError('usage', `--role is required (one of ${ROLES.join(', ')})`)
  const role = value.trim()
  if (!isRole(role)) throw new AppError('usage', `--role: unknown role "${role}" (use ${ROLES.join(', ')})`)
  return role
}
