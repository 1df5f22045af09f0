import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '#server/test/test-server.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { browserToken, openMasterData, signInToFacility } from './ui.ts';

// The shortest idle timeout the server allows: the client warns in its last quarter.
let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  app = await startAppUnderTest({ SESSION_IDLE_MINUTES: '1' });
  page = await app.open('/');
  await signInToFacility(page);
});
afterAll(async () => {
  await app?.close();
});

const warning = () => page.getByRole('dialog', { name: 'Your session is about to end' });

/** Seconds since the server last saw the session of the browser's token. */
async function serverIdleSeconds(): Promise<number> {
  const [row] = await app.server.db.query<{ idle: number }>(
    `select extract(epoch from now() - last_seen_at)::float8 as idle
       from sessions where ended_at is null order by id desc limit 1`,
  );
  return row!.idle;
}

describe('idle warning', () => {
  it('warns before the idle timeout, and Stay signed in keeps the session on the server', async () => {
    const startedAt = Date.now();
    // Three times: by the last one, the session has outlived the timeout counted from signing in.
    for (let round = 0; round < 3; round++) {
      await warning().waitFor({ timeout: 60_000 });
      await warning().getByRole('button', { name: 'Stay signed in' }).click();
      await warning().waitFor({ state: 'hidden' });
      expect(await serverIdleSeconds()).toBeLessThan(5);
    }
    expect(Date.now() - startedAt).toBeGreaterThan(60_000);
    await openMasterData(page, 'Equipment');
    expect(await page.getByRole('dialog', { name: 'Session Expired' }).count()).toBe(0);
    const me = await app.server.request('GET', '/api/v2/users/me', {
      token: await browserToken(page),
    });
    expect(me.status).toBe(200);
  }, 240_000); // three idle rounds of about 25 s each, on a busy machine

  it('left alone, the session ends and the page waits for signing in again', async () => {
    await warning().waitFor({ timeout: 60_000 });
    const expired = page.getByRole('dialog', { name: 'Session Expired' });
    await expired.waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/master-data/equipments');
    await expired.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await expired.getByRole('button', { name: 'Log In' }).click();
    await expired.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Equipment', exact: true }).waitFor();
  });
});
