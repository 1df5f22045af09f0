import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const PAGE =
  '<!doctype html><title>Carryover</title><script src="/assets/index-3f9a1c.js"></script>';
const SCRIPT = 'console.log("build 3f9a1c");';

let server: TestServer;
// A built client of this file's own: the suite does not build the real one.
const client = mkdtempSync(join(tmpdir(), 'carryover-client-'));
beforeAll(async () => {
  mkdirSync(join(client, 'assets'));
  writeFileSync(join(client, 'index.html'), PAGE);
  writeFileSync(join(client, 'assets', 'index-3f9a1c.js'), SCRIPT);
  writeFileSync(join(client, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ SERVE_CLIENT: 'true' }, { clientFolder: client });
});
afterAll(async () => {
  await server?.close();
  rmSync(client, { recursive: true, force: true });
});

describe('the built client', () => {
  it('sends its page for / and for every page path, to be asked for again each time', async () => {
    for (const path of ['/', '/master-data/sop', '/login?next=%2Fdashboard']) {
      const res = await server.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expect(res.body, path).toBe(PAGE);
      // After an upgrade the next visit loads the new build, not the one a browser kept.
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    const head = await fetch(`${server.url}/audit`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-cache');
  });

  it('lets browsers keep the hashed assets for a year', async () => {
    const res = await server.request('GET', '/assets/index-3f9a1c.js');
    expect(res.status).toBe(200);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for an asset or API path that is not there, never the page', async () => {
    for (const path of ['/assets/index-000000.js', '/api/v2/no-such-route']) {
      const res = await server.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toMatchObject({ errName: 'NotFoundError' });
    }
  });
});
