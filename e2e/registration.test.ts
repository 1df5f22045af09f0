import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, signInToFacility } from './ui.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

describe('secret-key registration', () => {
  it('an administrator creates a user without e-mail; the user registers with the key and signs in', async () => {
    // Its own employee id per attempt: a retry after a stall must not meet the first user.
    const employeeId = `E2E-KEY-${Date.now()}`;
    const admin = await app.open('/');
    await signInToFacility(admin);
    await admin.goto('/users');
    await admin.getByRole('button', { name: 'Add User' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('First Name').fill('Kurt');
    await dialog.getByLabel('Last Name').fill('Keyholder');
    await dialog.getByLabel('Employee ID').fill(employeeId);
    await choose(dialog.getByLabel('Roles in Oral Solid Dosage Plant'), 'Administrator');
    await dialog.getByRole('button', { name: 'Create User' }).click();

    const keyDialog = admin.getByRole('dialog', { name: 'Secret Key' });
    await keyDialog.getByText('This key is shown only once').waitFor();
    const secretKey = (await keyDialog.getByTestId('secret-key').innerText()).trim();
    expect(secretKey).toMatch(/^[\w-]{40,}$/);
    await keyDialog.getByRole('button', { name: 'Done' }).click();
    await admin.getByRole('cell', { name: employeeId, exact: true }).waitFor();
    await admin.getByText('Key issued').waitFor();

    const user = await app.open('/register');
    await user.getByLabel('Employee ID').fill(employeeId);
    await user.getByLabel('Secret Key').fill(secretKey);
    await user.getByRole('button', { name: 'Set Password' }).click();
    await user.getByText('Please set a new password').waitFor();
    await user.getByLabel('Password', { exact: true }).fill('Kurt#Pass12');
    await user.getByLabel('Re-enter Password').fill('Kurt#Pass12');
    await user.getByRole('button', { name: 'Complete Registration' }).click();
    await user.getByRole('button', { name: 'Log In' }).waitFor();
    await signIn(user, employeeId, 'Kurt#Pass12');
    await user.getByRole('button', { name: 'Logout' }).waitFor();
    await user.getByText('Kurt Keyholder').first().waitFor();
  });
});
