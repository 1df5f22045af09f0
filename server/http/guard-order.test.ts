import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let F: string;
let planId: number;
let facilityId: number;
beforeAll(async () => {
  server = await startTestServer();
  const [f] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  planId = f!.plan_id;
  facilityId = f!.id;
  F = `/api/v2/plans/${planId}/facilities/${facilityId}`;
});
afterAll(async () => {
  await server?.close();
});

/** Every route that takes a body and needs a session, with its path parameters filled in. */
async function guardedWrites(): Promise<{ method: string; path: string }[]> {
  const doc = (
    await server.request<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>(
      'GET',
      '/api/docs/json',
    )
  ).body;
  const writes: { method: string; path: string }[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/v2/plans/')) continue;
    const path = template
      .replace('{plan}', String(planId))
      .replace('{facility}', String(facilityId))
      .replace(/\{[^}]+\}/g, '1');
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.requestBody) writes.push({ method: method.toUpperCase(), path });
    }
  }
  return writes;
}

describe('guards run before the body is validated', () => {
  it('a request without a token gets 401 whatever its body, even malformed JSON', async () => {
    const writes = await guardedWrites();
    expect(writes.length).toBeGreaterThan(30);
    for (const { method, path } of writes) {
      for (const body of [{ nonsense: true }, '{"unterminated']) {
        const res = await server.request(method, path, { body });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
        expect(res.body).toMatchObject({ errName: 'SessionExpired' });
      }
    }
  });

  it('a user without the permission gets 403 whatever the body', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    for (const path of [
      `${F}/cleaning_limit_policies`,
      `${F}/products`,
      `${F}/microbial-cleaning-limit-policies`,
    ]) {
      const res = await server.request('POST', path, { token, body: { nonsense: [1, 2, 3] } });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    }
  });

  it('leaves an audit row for every refusal of a guard, facility and plan routes alike', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const facility = await server.request('POST', `${F}/products`, { token, body: {} });
    const plan = await server.request('POST', '/api/v2/departments', {
      token,
      body: { name: 'Refused' },
    });
    expect([facility.status, plan.status]).toEqual([403, 403]);
    const rows = await server.db.query<{ domain: string; new_values: Record<string, unknown> }>(
      `select domain, new_values from audit_log
        where user_id = $1 and action = 'AccessRefused' order by seq`,
      [user.id],
    );
    expect(rows).toEqual([
      {
        domain: 'Product',
        new_values: expect.objectContaining({
          attempted: 'Add',
          route: expect.stringContaining('/products'),
        }),
      },
      {
        domain: 'Department',
        new_values: expect.objectContaining({ attempted: 'Add' }),
      },
    ]);
  });

  it('with the permission, the same body is refused by validation (422)', async () => {
    const token = await server.login();
    const res = await server.request('POST', `${F}/cleaning_limit_policies`, {
      token,
      body: { nonsense: [1, 2, 3] },
    });
    expect(res.status).toBe(422);
  });
});
