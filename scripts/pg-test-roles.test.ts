import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestRoles, dropTestRoles, hostPrefix, leftRoles } from './pg-test-roles.mjs';

/** A pid no process can have on Linux (at or above PID_MAX_LIMIT, 2^22). */
const NEVER_A_PID = 4_194_304;
const superUrl = process.env.DATABASE_SUPERUSER_URL;

async function canConnect(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ who: string }>('select current_user as who');
    return rows[0]!.who;
  } finally {
    await client.end();
  }
}

describe.runIf(Boolean(superUrl))('the roles a test run makes on a PostgreSQL server', () => {
  it('are an owner and an app role that connect, found again once their run is gone, and dropped with their databases', async () => {
    // What an earlier run of this test left when its time ran out (its process is gone).
    const tests = hostPrefix('rolestest');
    for (const left of await leftRoles(superUrl!, tests)) await dropTestRoles(superUrl!, left);
    const prefix = `${tests}${process.pid}_`;
    const names = {
      database: `${prefix}${NEVER_A_PID}`,
      owner: `${prefix}${NEVER_A_PID}_owner`,
      app: `${prefix}${NEVER_A_PID}_app`,
    };
    try {
      const urls = await createTestRoles(superUrl!, names);
      expect(await canConnect(urls.DATABASE_OWNER_URL)).toBe(names.owner);
      expect(await canConnect(urls.DATABASE_URL)).toBe(names.app);
      // This process is alive: a run named by its pid is not left over.
      const alive = { owner: `${prefix}${process.pid}_owner`, app: `${prefix}${process.pid}_app` };
      await createTestRoles(superUrl!, { ...alive, database: `${prefix}${process.pid}` });
      const left = await leftRoles(superUrl!, prefix);
      expect(left).toEqual([{ owner: names.owner, app: names.app }]);
      await dropTestRoles(superUrl!, alive);
    } finally {
      await dropTestRoles(superUrl!, names);
    }
    const admin = new pg.Client({ connectionString: superUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select rolname as name from pg_roles where starts_with(rolname, $1)
          union all select datname from pg_database where starts_with(datname, $1)`,
        [prefix],
      );
      expect(rows).toEqual([]);
    } finally {
      await admin.end();
    }
    // Two databases made and dropped on a shared server (each drop waits for a checkpoint): with
    // two suites at once on two cores this took more than the unit projects' 30 s (issue 27).
  }, 180_000);
});
