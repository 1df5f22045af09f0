import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#server/config.ts';
import { migrateAsOwner } from '#server/db/migrate-owner.ts';
import { openDatabase } from '#server/db/open.ts';
import { seedFirstStart } from '#server/db/seed.ts';

/**
 * A fresh install of this code base, served on 127.0.0.1: a new embedded database in a folder of
 * its own, migrated and seeded as on a first start, signed in as its administrator. The pack is
 * then made against an instance that holds no site data and touches no site's database; the
 * folder is removed on close.
 */
export async function startFreshInstance() {
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-qualification-'));
  const admin = {
    email: 'qualification@carryover.local',
    // Random each time and never shown: the instance lives only as long as the run.
    password: `Q${randomBytes(12).toString('base64url')}#7a`,
  };
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    SERVE_CLIENT: 'false',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  const db = await openDatabase({ dataDir });
  try {
    await migrateAsOwner(db, config);
    await seedFirstStart(db, config);
    const [facility] = await db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id limit 1',
    );
    if (!facility) throw new Error('the fresh install has no facility');
    const { buildApp } = await import('#server/app.ts');
    const app = await buildApp({ config, db });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the fresh instance has no port');
    const url = `http://127.0.0.1:${address.port}`;
    const login = await fetch(`${url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.email, password: admin.password }),
    });
    const body = (await login.json()) as { token?: string };
    if (!login.ok || !body.token) throw new Error(`sign-in to the fresh instance: ${login.status}`);
    return {
      url,
      token: body.token,
      plan: String(facility.plan_id),
      facility: String(facility.id),
      config,
      async close() {
        await app.close();
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
