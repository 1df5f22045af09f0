import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleTemplateNamed } from '#core/permissions/role-templates.ts';
import { buildUser } from '#server/test/factories.ts';
import type { Page } from 'playwright-core';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

describe('a user without administration permissions', () => {
  it('sees no administration entries, is refused on the pages, and by the API', async () => {
    const [facility] = await app.server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id limit 1',
    );
    const user = await buildUser(app.server.db, { facilityIds: [facility!.id] });
    const page = await app.open('/');
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('link', { name: 'Home' }).waitFor();
    // The entries that need a permission appear only once the permissions are known.
    await page.locator('nav[aria-label="Main"][aria-busy="false"]').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Users', 'Roles', 'Departments', 'Operators']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).count(), label).toBe(0);
    }

    for (const path of ['/users', '/roles', '/departments', '/operators']) {
      await page.goto(path);
      await page.getByText('Not allowed', { exact: true }).waitFor();
      await page.getByText('You are not allowed to use this page').waitFor();
      expect(await page.getByRole('button', { name: 'Add User' }).count()).toBe(0);
    }

    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    const F = `/api/v2/plans/${facility!.plan_id}/facilities/${facility!.id}`;
    for (const path of [
      '/api/v2/users',
      '/api/v2/departments',
      `${F}/user_roles`,
      `${F}/operator`,
    ]) {
      const res = await app.server.request('GET', path, { token: token! });
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    }
  });
});

/** The main menu's entries once the permissions that decide them have arrived. */
async function menuOf(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  await page.locator('nav[aria-label="Main"][aria-busy="false"]').waitFor();
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  return (await links.allInnerTexts()).map((text) => text.trim());
}

describe('a user holding only the shipped Production role', () => {
  // Spec §6: a user whose roles are only Production or Quality Control is a restricted user. The
  // shipped Production template reads users (a run names its operators), which would open the
  // Operators administration to anyone else holding it; a restricted user never sees it.
  it('works on the studies but sees no administration, which the same rights under another name show', async () => {
    const [facility] = await app.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const operator = await buildUser(app.server.db, {
      facilityIds: [facility!.id],
      roleName: 'Production',
    });
    const lineLead = await buildUser(app.server.db, {
      facilityIds: [facility!.id],
      roleName: 'Line lead',
      permissions: roleTemplateNamed('Production')!.permissions(),
    });

    const page = await app.open('/');
    await signIn(page, operator.username, operator.password);
    const menu = await menuOf(page);
    expect(menu).toContain('Studies');
    for (const label of ['Users', 'Roles', 'Departments', 'Operators', 'Facilities'])
      expect(menu, label).not.toContain(label);
    await page.goto('/operators');
    await page.getByText('You are not allowed to use this page').waitFor();

    const other = await app.open('/');
    await signIn(other, lineLead.username, lineLead.password);
    expect(await menuOf(other)).toEqual(expect.arrayContaining(['Studies', 'Operators']));
  });
});
