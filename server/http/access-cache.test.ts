import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { TRole } from '#core/schemas/roles.schemas.ts';
import { buildUser, permissionsWith } from '../test/factories.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';

// A short lifetime, so that the wait across instances stays short; the default is 2 s.
const LIFETIME_SECONDS = 1;
const t = useFacilityTestServer({ ACCESS_CACHE_SECONDS: String(LIFETIME_SECONDS) });

/** A second instance of the app on the same database, as behind a load balancer. */
let other: FastifyInstance;
let otherUrl: string;

beforeAll(async () => {
  other = await buildApp({ config: t.server.config, db: t.server.db });
  await other.listen({ host: '127.0.0.1', port: 0 });
  const address = other.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  otherUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await other.close();
});

let sequence = 0;

/** A user whose own role in the first facility allows Equipment Get, signed in. */
async function equipmentReader() {
  sequence += 1;
  const roleName = `Readers ${sequence}`;
  const user = await buildUser(t.server.db, {
    roleName,
    facilityIds: [t.facilityId],
    permissions: permissionsWith({ Equipment: ['Get'] }),
  });
  const token = await t.server.login(user.username, user.password);
  const roles = await t.server.request<TRole[]>('GET', `${t.F}/user_roles`, { token: t.token });
  const role = roles.body.find((r) => r.name === roleName)!;
  return { token, role };
}

/** Takes Equipment Get out of the role, through the API as the administrator does. */
async function revoke(role: TRole, on: 'this' | 'other' = 'this') {
  const permissions = {
    ...role.permissions,
    Equipment: { ...role.permissions.Equipment, Get: false },
  };
  const path = `${t.F}/user_roles/${role.id}`;
  const body = { permissions, reason: 'No longer reads equipment', version: role.version };
  const res =
    on === 'this'
      ? await t.server.request('POST', path, { token: t.token, body })
      : await fetch(`${otherUrl}${path}`, {
          method: 'POST',
          headers: { token: t.token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
  expect(res.status).toBe(200);
}

const list = (token: string, base = t.server.url) =>
  fetch(`${base}${t.F}/equipments`, { headers: { token } }).then((res) => res.status);

describe('the access cache', () => {
  it('refuses the next request at once when a permission is taken away on this instance', async () => {
    const { token, role } = await equipmentReader();
    expect(await list(token)).toBe(200);
    expect(await list(token)).toBe(200);
    await revoke(role);
    expect(await list(token)).toBe(403);
  });

  it('never grants a revoked permission to a request made after the revoke, even under load', async () => {
    const { token, role } = await equipmentReader();
    // Reads in flight while the revoke commits may be answered either way; none after it.
    const during = Array.from({ length: 10 }, () => list(token));
    await revoke(role);
    const after = await Promise.all(Array.from({ length: 10 }, () => list(token)));
    await Promise.all(during);
    expect(after).toEqual(Array(10).fill(403));
  });

  it('refuses on the other instance within the cache lifetime', async () => {
    const { token, role } = await equipmentReader();
    expect(await list(token, otherUrl)).toBe(200);
    await revoke(role, 'this');
    const revokedAt = performance.now();
    let status = await list(token, otherUrl);
    while (status === 200 && performance.now() - revokedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await list(token, otherUrl);
    }
    expect(status).toBe(403);
    // The lifetime, and a margin for a loaded machine.
    expect(performance.now() - revokedAt).toBeLessThan(LIFETIME_SECONDS * 1000 + 1_500);
  });

  it('ends a session on the other instance when its user signs in again', async () => {
    const user = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const first = await t.server.login(user.username, user.password);
    const me = (token: string) =>
      fetch(`${otherUrl}/api/v2/users/me`, { headers: { token } }).then((res) => res.status);
    expect(await me(first)).toBe(200);
    await t.server.login(user.username, user.password);
    const at = performance.now();
    let status = await me(first);
    while (status === 200 && performance.now() - at < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await me(first);
    }
    expect(status).toBe(419);
    expect(performance.now() - at).toBeLessThan(LIFETIME_SECONDS * 1000 + 1_500);
  });

  it('applies a grant made by SQL outside the app within the lifetime', async () => {
    const { token, role } = await equipmentReader();
    expect(await list(token)).toBe(200);
    await t.server.db.query(
      `update roles set permissions = jsonb_set(permissions, '{Equipment,Get}', 'false') where id = $1`,
      [role.id],
    );
    await new Promise((resolve) => setTimeout(resolve, LIFETIME_SECONDS * 1000 + 100));
    expect(await list(token)).toBe(403);
  });
});
