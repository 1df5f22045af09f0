import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '#server/db/postgres-db.ts';
import { chainProbe } from '#server/test/chain-probe.ts';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { verifyChain } from './audit-chain.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const system: Actor = {
  userId: null,
  userName: 'test',
  ip: null,
  userAgent: null,
  requestId: null,
};

async function facility(): Promise<{ id: number; plan_id: number }> {
  const [row] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  return row!;
}

async function rejects(sql: string): Promise<string> {
  try {
    await server.db.query(sql);
  } catch (error) {
    return String((error as { code?: string }).code ?? error);
  }
  return 'accepted';
}

describe('audit trail', () => {
  it('records who, when by the database clock, what, and old and new values', async () => {
    const f = await facility();
    await server.db.transaction((tx) =>
      writeAudit(
        tx,
        { ...system, userId: 1, userName: 'System Administrator' },
        {
          planId: f.plan_id,
          facilityId: f.id,
          domain: 'Equipment',
          action: 'Update',
          entityId: 7,
          reason: 'Corrected area',
          oldValues: { surfaceArea: 10 },
          newValues: { surfaceArea: 12 },
        },
      ),
    );
    const [row] = await server.db.query<Record<string, unknown>>(
      `select chain, seq, user_name, domain, action, entity_id, reason, old_values, new_values,
              abs(extract(epoch from (now() - at))) < 5 as recent
         from audit_log where chain = $1 order by seq desc limit 1`,
      [`facility:${f.id}`],
    );
    expect(row).toMatchObject({
      chain: `facility:${f.id}`,
      user_name: 'System Administrator',
      action: 'Update',
      entity_id: '7',
      reason: 'Corrected area',
      old_values: { surfaceArea: 10 },
      new_values: { surfaceArea: 12 },
      recent: true,
    });
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
    expect(await rejects(`update audit_log set reason = 'rewritten'`)).toBe('42501');
    expect(await rejects('delete from audit_log')).toBe('42501');
    expect(await rejects('truncate audit_log')).toBe('42501');
  });

  it('rolls the change back when its audit row cannot be written', async () => {
    const user = await buildUser(server.db);
    await expect(
      server.db.transaction(async (tx) => {
        await tx.query(`update users set first_name = 'Changed' where id = $1`, [user.id]);
        // A row without a domain, as only a write outside the catalogue could make one.
        await writeAudit(tx, system, {
          planId: null,
          domain: null as unknown as 'User',
          action: 'Update',
        });
      }),
    ).rejects.toThrow();
    const [row] = await server.db.query<{ first_name: string }>(
      'select first_name from users where id = $1',
      [user.id],
    );
    expect(row?.first_name).toBe('Test');
  });

  it('keeps one unforked chain under concurrent writers', async () => {
    const f = await facility();
    const chain = `facility:${f.id}`;
    const before = await verifyChain(server.db, chain);
    const writers = 16;
    const each = 25;
    // On a server, each writer gets its own connection, so the inserts really race.
    const url = process.env.DATABASE_URL;
    const pool = url
      ? await openPostgres(await currentDatabaseUrl(url), { max: writers })
      : server.db;
    try {
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < each; i += 1) {
            await pool.transaction((tx) =>
              writeAudit(
                tx,
                system,
                chainProbe({ planId: f.plan_id, facilityId: f.id, action: `w${w}-${i}` }),
              ),
            );
          }
        }),
      );
    } finally {
      if (pool !== server.db) await pool.close();
    }
    const after = await verifyChain(server.db, chain);
    expect(after).toMatchObject({ intact: true, rows: before.rows + writers * each });
    const [gaps] = await server.db.query<{ n: number; max: number }>(
      'select count(distinct seq)::int as n, max(seq)::int as max from audit_log where chain = $1',
      [chain],
    );
    expect(gaps).toEqual({ n: after.rows, max: after.rows });
  });

  it('names the broken row when someone rewrites history behind the triggers', async () => {
    const f = await facility();
    const chain = `plan:${f.plan_id}`;
    await server.login();
    expect((await verifyChain(server.db, chain)).intact).toBe(true);
    const [target] = await server.db.query<{ seq: number }>(
      'select seq from audit_log where chain = $1 order by seq limit 1 offset 1',
      [chain],
    );
    // Someone with the owner's rights: the app role may not disable triggers.
    const owner = await server.db.owner();
    await owner.transaction(async (tx) => {
      await tx.query('alter table audit_log disable trigger audit_log_no_update');
      await tx.query(`update audit_log set reason = 'tampered' where chain = $1 and seq = $2`, [
        chain,
        target!.seq,
      ]);
      await tx.query('alter table audit_log enable trigger audit_log_no_update');
    });
    expect(await verifyChain(server.db, chain)).toMatchObject({
      intact: false,
      brokenSeq: target!.seq,
      problem: 'hash',
    });
  });

  it('verifies the chains over HTTP for a user who may read the audit log', async () => {
    const f = await facility();
    const token = await server.login();
    const res = await server.request<{ chains: { chain: string }[] }>(
      'GET',
      `/api/v2/plans/${f.plan_id}/facilities/${f.id}/audit_logs/verify`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.chains.map((c) => c.chain)).toEqual([`facility:${f.id}`, `plan:${f.plan_id}`]);
    const user = await buildUser(server.db);
    const refused = await server.request(
      'GET',
      `/api/v2/plans/${f.plan_id}/facilities/${f.id}/audit_logs/verify`,
      {
        token: await server.login(user.username, user.password),
      },
    );
    expect(refused.status).toBe(403);
  });
});

async function currentDatabaseUrl(url: string): Promise<string> {
  const [row] = await server.db.query<{ name: string }>('select current_database() as name');
  const u = new URL(url);
  u.pathname = `/${row!.name}`;
  return u.toString();
}
