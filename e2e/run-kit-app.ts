import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { runKit } from '#server/test/run-test-kit.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { browserToken, facilityApi } from './ui.ts';

/**
 * The run test kit on the app under test's facility, for the verification browser tests: the
 * same server the browser talks to. `session.token` is the administrator's API session; the
 * browser's sign-in ends it, so a test signs in anew (`session.token = await app.server.login()`).
 */
export async function runKitOnApp(app: AppUnderTest) {
  const facility = await facilityApi(app);
  const [plan] = await app.server.db.query<{ plan_id: number }>(
    'select plan_id from facilities where id = $1',
    [facility.id],
  );
  const session = { token: await app.server.login() };
  const kit = runKit({
    server: app.server,
    get token() {
      return session.token;
    },
    F: facility.path,
    facilityId: facility.id,
    planId: plan!.plan_id,
    call: (method, path, body, as?: string) =>
      app.server.request<TestBody>(method, path, {
        token: as ?? session.token,
        ...(body === undefined ? {} : { body }),
      }),
  });
  await kit.build();
  return { kit, session, F: facility.path };
}

/** Calls under the facility path as the browser's session; anything but 200 fails the test. */
export function browserApi(app: AppUnderTest, F: string) {
  return async (page: Page, method: string, path: string, body?: unknown) => {
    const res = await app.server.request<TestBody>(method, `${F}${path}`, {
      token: await browserToken(page),
      ...(body === undefined ? {} : { body }),
    });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
}

type RunKitApp = Awaited<ReturnType<typeof runKitOnApp>> & { app: AppUnderTest };

/**
 * A browser file's app under test with the run kit built on it: started before the file's tests,
 * closed after them. Its fields are there once the tests run.
 */
export function runKitAppForFile(): RunKitApp {
  const file = {} as RunKitApp;
  beforeAll(async () => {
    file.app = await startAppUnderTest();
    Object.assign(file, await runKitOnApp(file.app));
  });
  afterAll(async () => {
    await file.app?.close();
  });
  return file;
}
