import type { EntityDef } from '../entity.ts';

/**
 * A facility's role: a name and its permission map (spec §6). Its calls are the spec's own
 * ({F}/user_roles, server/modules/roles), its writes the record store's; who may define which
 * rights is decided by server/modules/users-admin/user-privileges.ts before each write.
 */
export const rolesDef = {
  key: 'roles',
  label: 'Role',
  pluralLabel: 'Roles',
  path: 'user_roles',
  table: 'roles',
  resource: 'UserRole',
  domain: 'UserRole',
  description: 'Roles of a facility, each with the actions it allows on each resource.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, max: 100 },
    { name: 'permissions', label: 'Permissions', kind: 'json', required: true },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name'],
} as const satisfies EntityDef<string>;
