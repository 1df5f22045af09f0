import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText, startSmtpSink, type SmtpSink } from '#server/test/smtp-sink.ts';
import { buildUser } from '#server/test/factories.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, discardQuestion, openAsAdmin, openDrawer } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let smtp: SmtpSink;
let app: AppUnderTest;
beforeAll(async () => {
  smtp = await startSmtpSink();
  app = await startAppUnderTest({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

describe('user administration in the browser', () => {
  it('an administrator creates a user, who completes the mailed invitation and signs in', async () => {
    // A retry of this test runs on the same database, so each attempt invites its own user.
    const attempt = Date.now() % 1_000_000;
    const username = `E2E-INV-${attempt}`;
    const email = `irene.invited.${attempt}@example.com`;
    const page = await openAsAdmin(app, '/users', 'Users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('First Name').fill('Irene');
    await dialog.getByLabel('Last Name').fill('Invited');
    await dialog.getByLabel('Employee ID').fill(username);
    await dialog.getByLabel('Email').fill(email);
    // Without a role the user would have no facility to sign in to: choose checks it held.
    await choose(dialog.getByLabel('Roles in Oral Solid Dosage Plant'), 'Administrator');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await page.getByText(`Invitation sent to ${email}`).waitFor();
    await page.getByRole('cell', { name: username, exact: true }).waitFor();

    const mail = await smtp.waitFor(email);
    const link = /(\/reset-password\?u=\d+&token=[\w-]+)/.exec(plainText(mail.raw));
    expect(link).not.toBeNull();

    const invited = await app.open(link![1]!);
    await invited.getByText('Please set a new password').waitFor();
    await invited.getByLabel('Password', { exact: true }).fill('Irene#Pass1');
    await invited.getByLabel('Re-enter Password').fill('Irene#Pass1');
    await invited.getByRole('button', { name: 'Complete Registration' }).click();
    await invited.getByRole('button', { name: 'Log In' }).waitFor();
    await signIn(invited, username, 'Irene#Pass1');
    await invited.getByRole('button', { name: 'Logout' }).waitFor();
    await invited.getByText('Irene Invited').first().waitFor();
  });

  it('shows a duplicate Employee ID on its field, and edits a user with a reason', async () => {
    allowRefusedRequest(409, '/api/v2/users');
    // The test's own sign-in through the API ends the browser's session.
    allowRefusedRequest(419, /\/signatures\/pending/);
    // A retry of this test runs on the same database, so each attempt has its own user.
    const username = `E2E-EDIT-${Date.now() % 1_000_000}`;
    await buildUser(app.server.db, { username, firstName: 'Edith' });
    const page = await openAsAdmin(app, '/users', 'Users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('First Name').fill('Dup');
    await dialog.getByLabel('Last Name').fill('Licate');
    await dialog.getByLabel('Employee ID').fill('ADM001');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.getByText('A user with this Employee ID already exists').waitFor();
    // What was typed is not thrown away unasked.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await (await discardQuestion(page)).getByRole('button', { name: 'Discard' }).click();

    await page.getByRole('button', { name: `Actions for ${username}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('Last Name').fill('Edited');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('A reason is required').waitFor();
    await edit.getByLabel('Reason').fill('Married name');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('row', { name: new RegExp(username) })
      .getByText('Edith Edited')
      .waitFor();
    const [audit] = await app.server.db.query<{ reason: string }>(
      `select reason from audit_log where domain = 'User' and action = 'Update' order by id desc limit 1`,
    );
    expect(audit?.reason).toBe('Married name');

    // The account's own history shows the edit, with its reason.
    await page.getByRole('button', { name: `Actions for ${username}` }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    const history = openDrawer(page).getByRole('table');
    await history.getByText('Married name').waitFor();
  });
});
