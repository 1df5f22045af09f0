import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { openMasterData, openSignedIn } from './ui.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

describe('facility tiers and licences in the browser', () => {
  it('leaves Studies out of the menu of a lite facility, and keeps it on a full one', async () => {
    const page = await openSignedIn(app, '/', { facility: 'API Plant' });
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'Master data' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Studies' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Change control' }).count()).toBe(0);
    await page.close();

    const full = await openSignedIn(app, '/', { facility: 'Oral Solid Dosage Plant' });
    await full
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Studies' })
      .waitFor();
    await full.close();
  });

  it('shows a grace-exceeded facility read-only to anyone but an administrator', async () => {
    const [facility] = await app.server.db.query<{ id: number }>(
      `update facilities set license_state = 'grace-exceeded', license_workflow = 'renewal'
        where name = 'Oral Solid Dosage Plant' returning id`,
    );
    const user = await buildUser(app.server.db, {
      facilityIds: [facility!.id],
      roleName: 'Everything here',
      permissions: fullPermissionMap(),
    });
    const page = await app.open('/sign-in');
    await signIn(page, user.username, user.password);
    const notice = page.getByTestId('license-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('read-only');
    await openMasterData(page, 'Products');
    await page.getByText('No products yet').waitFor();
    expect(await page.getByRole('button', { name: /^Add product/ }).count()).toBe(0);
    await page.close();
  });
});
