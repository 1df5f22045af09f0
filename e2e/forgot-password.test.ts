import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { plainText, startSmtpSink, type SmtpSink } from '#server/test/smtp-sink.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { publicUrl } from '#server/config.ts';

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

describe('forgot password by mail', () => {
  it('mails a link; the reset screen shows the plan’s policy; the new password signs in', async () => {
    // A stricter policy than the default, so the checklist must come from the server.
    const admin = await app.server.login();
    const policy = await app.server.request('PUT', '/api/v2/users/password-policy', {
      token: admin,
      body: {
        passwordPolicySettings: {
          minPasswordLength: 12,
          minCapital: 1,
          minNumber: 1,
          specialCharacters: 1,
        },
        maxLoginAttempts: 5,
        lockoutMinutes: 15,
        passwordExpiryDays: 90,
        passwordHistoryCount: 5,
        version: 1,
        reason: 'Longer passwords (SOP-IT-004)',
      },
    });
    expect(policy.status).toBe(200);
    const [facility] = await app.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const user = await buildUser(app.server.db, { facilityIds: [facility!.id] });

    const page = await app.open('/forgot-password');
    await page.getByText('Retrieve Access').waitFor();
    await page.getByLabel('Email/Employee ID').fill(user.email!);
    await page.getByRole('button', { name: 'Identify Me' }).click();
    await page.getByText('Reset Link Generated Successfully').waitFor();

    const mail = await smtp.waitFor(user.email!);
    const link = /https?:\/\/[^\s]+\/reset-password\?u=\d+&token=[\w-]+/.exec(plainText(mail.raw));
    expect(link, plainText(mail.raw)).not.toBeNull();
    const url = new URL(link![0]);
    // Links come from configuration (PUBLIC_URL, else HOST:PORT), never the request's Host.
    expect(url.origin).toBe(publicUrl(app.server.config));

    await page.goto(url.pathname + url.search);
    await page.getByText('Please set a new password').waitFor();
    // The fields show at once; the name is filled in when the link's check answers.
    await expect.poll(() => page.getByLabel('Email/Employee ID').inputValue()).toBe(user.email);
    await page.getByText('12 characters minimum').waitFor();
    const button = page.getByRole('button', { name: 'Complete Registration' });

    // Ten characters pass the default policy but not this plan's.
    await page.getByLabel('Password', { exact: true }).fill('Short#Pw10');
    await page.getByLabel('Re-enter Password').fill('Short#Pw10');
    await page.getByText('Passwords Match').waitFor();
    expect(await page.locator('[data-rule="length"]').getAttribute('data-passes')).toBe('false');
    expect(await button.isDisabled()).toBe(true);

    await page.getByLabel('Password', { exact: true }).fill('Mailed#Reset12');
    await page.getByLabel('Re-enter Password').fill('Mailed#Reset12');
    await page.locator('[data-rule="length"][data-passes="true"]').waitFor();
    await button.click();
    await page.getByText('Reset Password Successful').waitFor();
    await page.waitForURL((address) => address.pathname === '/');

    await signIn(page, user.username, 'Mailed#Reset12');
    await page.getByRole('button', { name: 'Logout' }).waitFor();

    // The link was single use.
    const again = await app.server.request('GET', `/api/v2/auth/reset-password${url.search}`);
    expect(again.status).toBe(400);
  });
});
