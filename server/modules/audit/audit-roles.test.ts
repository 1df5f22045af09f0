import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/db.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { testDatabaseRoles, withDatabase } from '#server/test/test-db-urls.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import {
  isAuditTrailProtected,
  UNPROTECTED_WARNING,
  warnIfAuditTrailUnprotected,
} from './audit-protection.ts';

const onServer = Boolean(process.env.DATABASE_URL);
const twoRoles = onServer && Boolean(testDatabaseRoles().appRole);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function sqlState(db: Db, sql: string): Promise<{ code: string; message: string }> {
  try {
    await db.query(sql);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { code: e.code ?? 'none', message: e.message ?? '' };
  }
  return { code: 'accepted', message: '' };
}

/**
 * The role the app serves with. In the two-role setup that is the suite's own database
 * connection; with one superuser URL the test makes a least-privilege role the way the
 * migrations grant it, so that the refusals are tested on every PostgreSQL run.
 */
async function appRoleDb(): Promise<{ db: Db; done: () => Promise<void> }> {
  if (twoRoles) return { db: server.db, done: async () => undefined };
  const role = `carryover_t_app_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await server.db.exec(`create role ${role} login nosuperuser password '${password}'`);
  await server.db.query('select grant_app_role($1)', [role]);
  const [row] = await server.db.query<{ name: string }>('select current_database() as name');
  const url = new URL(withDatabase(process.env.DATABASE_URL!, row!.name));
  url.username = role;
  url.password = password;
  const db = await openPostgres(url.toString(), { max: 1 });
  return {
    db,
    done: async () => {
      await db.close();
      await server.db.exec(`drop owned by ${role}; drop role ${role}`);
    },
  };
}

const FORBIDDEN = [
  `update audit_log set reason = 'rewritten'`,
  'delete from audit_log',
  'truncate audit_log',
  'alter table audit_log add column note text',
  'drop table audit_log',
  'alter table audit_log disable trigger audit_log_no_update',
  'alter table audit_log disable trigger all',
  `update audit_chain_heads set hash = repeat('0', 64)`,
  'delete from audit_chain_heads',
  'truncate audit_chain_heads',
  'drop table audit_chain_heads',
  'set session_replication_role = replica',
  // The id the anchors outside the database are written under (a restore sets it as the owner).
  'update database_identity set id = gen_random_uuid()',
  'delete from database_identity',
  'insert into database_identity default values',
];

describe.runIf(onServer)('the app role on a PostgreSQL server', () => {
  let app: Awaited<ReturnType<typeof appRoleDb>>;
  beforeAll(async () => {
    app = await appRoleDb();
  });
  afterAll(async () => {
    await app?.done();
  });

  it.each(FORBIDDEN)('is refused with 42501 for: %s', async (sql) => {
    const result = await sqlState(app.db, sql);
    expect(result.code).toBe('42501');
    // Refused for want of a privilege, not by the trigger that an owner could switch off.
    expect(result.message).toMatch(/permission denied|must be owner/);
  });

  it('still appends to the audit trail, reads it, and changes ordinary records', async () => {
    const [f] = await app.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id limit 1',
    );
    await app.db.query(
      `insert into audit_log (chain, seq, plan_id, facility_id, domain, action, prev_hash, hash)
       values (null, 0, $1, $2, 'Test', 'AppRole', '', '')`,
      [f!.plan_id, f!.id],
    );
    const [row] = await app.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'AppRole'`,
    );
    expect(row?.n).toBe(1);
    await app.db.query(`update facilities set name = name where id = $1`, [f!.id]);
  });

  it('is reported protected, and the owner is not, with one warning for it', async () => {
    expect(await isAuditTrailProtected(app.db)).toBe(true);
    const owner = await server.db.owner();
    expect(await isAuditTrailProtected(owner)).toBe(false);
    const warnings: string[] = [];
    await warnIfAuditTrailUnprotected(app.db, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    await warnIfAuditTrailUnprotected(owner, (m) => warnings.push(m));
    expect(warnings).toEqual([UNPROTECTED_WARNING]);
  });
});

describe('GET /api/v2/health auditTrailProtected', () => {
  // The suite serves as the app role only in the two-role setup; PGlite and a single
  // superuser URL can alter the audit table.
  it(`is ${twoRoles} ${twoRoles ? 'as the least-privilege app role' : 'with one role that owns the audit tables'}`, async () => {
    const res = await server.request<{ auditTrailProtected: boolean }>('GET', '/api/v2/health');
    expect(res.status).toBe(200);
    expect(res.body.auditTrailProtected).toBe(twoRoles);
  });

  it.runIf(!onServer)('logs no warning on the embedded database, which has one role', async () => {
    const warnings: string[] = [];
    expect(await warnIfAuditTrailUnprotected(server.db, (m) => warnings.push(m))).toBe(false);
    expect(warnings).toEqual([]);
  });
});
