import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_MAX: '1000' });
});
afterAll(async () => {
  await server?.close();
});

/** Every API route, from the OpenAPI document, with sample parameters; plus the docs UI. */
async function registeredRoutes(): Promise<[string, string][]> {
  const doc = await server.request<{ paths: Record<string, Record<string, unknown>> }>(
    'GET',
    '/api/docs/json',
  );
  const routes: [string, string][] = [
    ['GET', '/api/docs/json'],
    ['GET', '/api/docs/'],
  ];
  for (const [path, methods] of Object.entries(doc.body.paths)) {
    for (const method of Object.keys(methods))
      routes.push([method.toUpperCase(), path.replace(/\{\w+\}/g, '1')]);
  }
  return routes;
}

describe('the HTTP application', () => {
  it('answers health once migrations have run', async () => {
    const res = await server.request('GET', '/api/v2/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', migrations: expect.any(Number) });
  });

  it('sends security headers and a request id on every registered route', async () => {
    const routes = await registeredRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const [method, path] of routes) {
      const res = await server.request(
        method,
        path,
        method === 'GET' || method === 'HEAD' ? {} : { body: {} },
      );
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security'), path).toContain('max-age=31536000');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-request-id'), path).toBeTruthy();
    }
  });

  it('keeps a caller-given request id', async () => {
    const res = await server.request('GET', '/api/v2/features', {
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    expect(res.body).toEqual({ SSO: false, SSOProvider: null, logoutUrl: null });
  });

  it('answers unknown API paths with NotFoundError', async () => {
    const res = await server.request('GET', '/api/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errName: 'NotFoundError', name: 'NotFoundError' });
  });

  it('publishes an OpenAPI document generated from the schemas, and a UI for it', async () => {
    const doc = await server.request<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>('GET', '/api/docs/json');
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v2/auth/login',
        '/api/v2/users/me',
        '/api/v2/plans/{plan}/facilities',
      ]),
    );
    expect(JSON.stringify(doc.body.paths['/api/v2/auth/login']?.post?.requestBody)).toContain(
      'username',
    );
    const ui = await fetch(`${server.url}/api/docs/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('never answers malformed sign-in input with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom(
          '/api/v2/auth/login',
          '/api/v2/auth/reset-password',
          '/api/v2/auth/change-password',
          '/api/v2/auth/logout',
        ),
        async (body, path) => {
          const res = await server.request('POST', path, { body: JSON.stringify(body) });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.body).toHaveProperty('errName');
          else expect(path).toBe('/api/v2/auth/logout');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('rate limits on the authentication calls', () => {
  it('answers 429 with Retry-After once the limit is used up', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT_MAX: '3' });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 4; i += 1) {
        const res = await limited.request('POST', '/api/v2/auth/login', {
          body: { username: 'x@example.com', password: 'y' },
        });
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get('retry-after');
          expect(res.body).toMatchObject({ errName: 'TooManyRequests' });
        }
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      // Reads outside the auth calls are not limited by it.
      expect((await limited.request('GET', '/api/v2/health')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
