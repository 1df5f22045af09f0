import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  // About two seconds of absolute lifetime; the idle timeout stays at its 30 minutes.
  server = await startTestServer({ SESSION_MAX_HOURS: '0.0006' });
});
afterAll(async () => {
  await server?.close();
});

describe('sessions', () => {
  it('end at their absolute lifetime even while in use', async () => {
    const token = await server.login();
    const started = Date.now();
    const statuses: number[] = [];
    while (Date.now() - started < 3_500) {
      const res = await server.request('GET', '/api/v2/departments', { token });
      statuses.push(res.status);
      if (res.status === 401) {
        expect(res.body).toMatchObject({ errName: 'SessionExpired' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    const [row] = await server.db.query<{ end_reason: string }>(
      `select end_reason from sessions order by id desc limit 1`,
    );
    expect(row?.end_reason).toBe('expired');
  });
});

describe('API answers', () => {
  it('are never stored by a browser or proxy', async () => {
    const token = await server.login();
    for (const [path, withToken] of [
      ['/api/v2/health', false],
      ['/api/v2/departments', true],
      ['/api/v2/no-such-route', false],
    ] as const) {
      const res = await server.request('GET', path, withToken ? { token } : {});
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const refused = await server.request('POST', '/api/v2/auth/login', { body: { username: 1 } });
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});
