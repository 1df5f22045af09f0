import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { expectAccessible } from './accessibility.ts';
import { named } from './browser.ts';
import { choose, openAsAdmin } from './ui.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

describe('service accounts in the browser', () => {
  it('creates an account with a role, issues a token shown once that calls the API, and revokes it', async () => {
    const name = named('E2E LIMS bridge');
    const page = await openAsAdmin(app, '/users/service-accounts', 'Service Accounts');
    // The users' administration area lists the screen.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Service accounts', exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Add Service Account' }).click();
    const add = page.getByRole('dialog', { name: 'Add Service Account' });
    await add.getByLabel('Name').first().fill(name);
    await choose(add.getByLabel('Owner'), 'System Administrator');
    await choose(add.getByLabel('Roles in Oral Solid Dosage Plant'), 'Administrator');
    await add.getByRole('button', { name: 'Create Service Account' }).click();
    await add.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('System Administrator').waitFor();
    await row.getByText('Never').waitFor();
    await expectAccessible(page);

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'API Tokens' }).click();
    const tokens = page.getByRole('dialog', { name: `API tokens of ${name}` });
    await tokens.getByRole('button', { name: 'Issue Token' }).click();
    const issue = page.getByRole('dialog', { name: 'Issue API Token' });
    await issue.getByLabel('Token name').fill('Nightly import');
    await issue.getByRole('button', { name: 'Issue Token' }).click();
    await issue.waitFor({ state: 'hidden' });
    await tokens.getByText('This token is shown only once').waitFor();
    const token = (await tokens.getByTestId('api-token').innerText()).trim();
    expect(token.length).toBeGreaterThan(20);
    // The token works from another system: the plan's facilities, with the account's grant only.
    const call = () =>
      fetch(`${app.server.url}/api/v2/service-accounts`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await call()).status).toBe(200);
    const tokenRow = tokens.getByRole('row').filter({ hasText: 'Nightly import' });
    await tokenRow.getByText('Active').waitFor();

    await tokenRow.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke the token Nightly import' });
    await revoke.getByLabel('Reason').fill('Bridge moved to a new server');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await revoke.waitFor({ state: 'hidden' });
    await tokenRow.getByText('Revoked', { exact: true }).waitFor();
    expect((await call()).status).toBe(401);
    // Reopened, the list shows the last use and never the token again.
    await tokens.getByRole('button', { name: 'Close' }).first().click();
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'API Tokens' }).click();
    await tokens.getByRole('row').filter({ hasText: 'Nightly import' }).waitFor();
    expect(await tokens.getByText(token).count()).toBe(0);
    expect(await tokens.getByRole('cell', { name: 'Never', exact: true }).count()).toBe(0);
  });
});
