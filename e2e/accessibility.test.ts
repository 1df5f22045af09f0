import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { seedDemo } from '#server/db/seed-demo.ts';
import { expectAccessible } from './accessibility.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { MAIN_SCREENS, openScreen } from './main-screens.ts';
import { facilityApi, signInToFacility } from './ui.ts';

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  app = await startAppUnderTest();
  await seedDemo(app.server.db, (await facilityApi(app)).id);
  page = await app.open('/');
  await signInToFacility(page);
});
afterAll(async () => {
  await app?.close();
});

it('the sign-in screen has no serious or critical WCAG 2.1 AA violation', async () => {
  // Its own browser context: the signed-in page keeps its session.
  const signIn = await app.open('/');
  await signIn.getByRole('button', { name: 'Log In' }).waitFor();
  await expectAccessible(signIn);
  await signIn.context().close();
});

it.each(MAIN_SCREENS)(
  'the demo facility’s $name screen has no serious or critical WCAG 2.1 AA violation',
  async ({ path }) => {
    await openScreen(page, path);
    await expectAccessible(page);
  },
);
