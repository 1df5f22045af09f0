import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

const get = (path: string) => fetch(new URL(path, app.server.url));

it('answers a client route opened directly with the page, not a 404', async () => {
  for (const path of ['/master-data/sop', '/master-data/sop?record=1', '/studies/1/', '/runs/7']) {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type'), path).toContain('text/html');
    expect(await res.text(), path).toContain('<div id="root"></div>');
  }
  const page = await app.open('/master-data/sop');
  await page.getByLabel('Email/Employee ID').waitFor();
});

it('keeps 404 for unknown API paths and missing built files', async () => {
  const api = await get('/api/v2/nothing-here');
  expect(api.status).toBe(404);
  expect(await api.json()).toMatchObject({ errName: 'NotFoundError' });
  expect((await get('/assets/gone-1234.js')).status).toBe(404);
});

it('serves the icon the page links to, also as /favicon.ico', async () => {
  const page = await app.open('/');
  expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type'), path).toContain('image/svg+xml');
    expect(await res.text(), path).toContain('<svg');
  }
});
