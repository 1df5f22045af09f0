import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSubject, auditChangeLines } from '#core/audit/audit-format.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { auditNames } from './audit-names.ts';

/** Issue 15: rows about users, roles, facilities and default units name them, not '#5'. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('audit names of records with no declared type', () => {
  it('names the user, the default unit, the facility and the role a row points to', async () => {
    const [f] = await server.db.query<{ id: number; plan_id: number; name: string }>(
      'select id, plan_id, name from facilities order by id limit 1',
    );
    const [user] = await server.db.query<{ id: number; name: string }>(
      `select id, first_name || ' ' || last_name as name from users where plan_id = $1
        order by id limit 1`,
      [f!.plan_id],
    );
    const [unit] = await server.db.query<{ id: number }>(
      `select id from default_units where facility_id = $1 and short_name = 'surfaceArea'`,
      [f!.id],
    );
    const [role] = await server.db.query<{ id: number; name: string }>(
      'select id, name from roles where facility_id = $1 order by id limit 1',
      [f!.id],
    );
    const rows = [
      {
        domain: 'DefaultUnit',
        entityId: `${unit!.id} (surfaceArea)`,
        oldValues: null,
        newValues: null,
      },
      {
        domain: 'User',
        entityId: String(user!.id),
        oldValues: null,
        newValues: { facilityRoles: [{ facilityId: f!.id, roleIds: [role!.id] }] },
      },
    ];
    const names = await auditNames(server.db, f!.plan_id, rows);
    expect(auditSubject(rows[0]!, names)).toBe('Default unit ‘surface area’');
    expect(auditSubject(rows[1]!, names)).toBe(`User ‘${user!.name}’`);
    expect(auditChangeLines(rows[1]!, { names, formatDateTime: (iso) => iso })).toEqual([
      `Roles by facility: Facility: ${f!.name}, Roles: ${role!.name}`,
    ]);
    // Another plan's records are not named.
    expect(await auditNames(server.db, f!.plan_id + 1000, rows)).toEqual({});
  });
});
