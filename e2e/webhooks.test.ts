import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLimitsSnapshot } from '#server/modules/policies/policy-approval.ts';
import { signatureHolds, startReceiver } from '#server/test/webhook-receiver.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { expectAccessible } from './accessibility.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import { openAsAdmin } from './ui.ts';

let app: AppUnderTest;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  app = await startAppUnderTest({
    WEBHOOK_POLL_SECONDS: '0.1',
    // One quick retry, so that a failing receiver's delivery is given up within the test.
    WEBHOOK_RETRY_SECONDS: '0.1',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

async function firstFacility() {
  const [facility] = await app.server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  return facility!;
}

/** Limits put in force in the first facility (the app's own write of a snapshot). */
async function putLimitsInForce(documentId: number) {
  const facility = await firstFacility();
  await app.server.db.transaction((tx) =>
    storeLimitsSnapshot(tx, {
      ref: {
        planId: facility.plan_id,
        facilityId: facility.id,
        documentType: 'CleaningInspectionSettings',
        documentId,
      },
      versionNumber: 1,
      content: {},
    }),
  );
}

describe('webhooks in the browser', () => {
  it('adds a hook whose secret is shown once, and its delivery log shows the signed post', async () => {
    const page = await openAsAdmin(app, '/webhooks', 'Webhooks');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Webhooks', exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Add Webhook' }).click();
    const add = page.getByRole('dialog', { name: 'Add Webhook' });
    // A URL that is not http(s) is refused by the server (422) and shown on its field.
    allowRefusedRequest(422, /\/facilities\/\d+\/webhooks/);
    await add.getByLabel('URL').fill('ftp://mes.example.com/in');
    await add.getByLabel(/New limits were put in force/).check();
    await add.getByRole('button', { name: 'Add Webhook' }).click();
    await add.getByText('Enter an http:// or https:// URL').waitFor();
    await add.getByLabel('URL').fill(receiver.url);
    await add.getByRole('button', { name: 'Add Webhook' }).click();
    await add.waitFor({ state: 'hidden' });
    await page.getByText('This secret is shown only once').waitFor();
    const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('None delivered yet').waitFor();
    await expectAccessible(page);

    await putLimitsInForce(1);
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [got] = receiver.received;
    expect(got!.body.event).toBe('limits.changed');
    expect(signatureHolds(secret, got!.headers['x-carryover-signature'], got!.raw)).toBe(true);

    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: `Deliveries to ${receiver.url}` });
    await log.getByText('Delivered', { exact: true }).waitFor();
    await log.getByText(/HTTP 204/).waitFor();
    // The record in words, as the audit trail names it (issue 30).
    await log.getByText('Facility ‘Oral Solid Dosage Plant’').waitFor();
    await expectAccessible(page);
  });

  it('sends a delivery that was given up again, with a reason', async () => {
    let failing = true;
    const flaky = await startReceiver(() => (failing ? 500 : 204));
    try {
      const facility = await firstFacility();
      const token = await app.server.login();
      const made = await app.server.request<{ result: { id: number } }>(
        'POST',
        `/api/v2/plans/${facility.plan_id}/facilities/${facility.id}/webhooks`,
        { token, body: { url: flaky.url, events: ['limits.changed'] } },
      );
      expect(made.status).toBe(200);
      await putLimitsInForce(2);
      const state = async () =>
        (
          await app.server.db.query<{ state: string }>(
            'select state from webhook_deliveries where webhook_id = $1',
            [made.body.result.id],
          )
        )[0]?.state;
      await expect.poll(state, { timeout: 15_000 }).toBe('failed');
      failing = false;

      const page = await openAsAdmin(app, '/webhooks', 'Webhooks');
      const row = page.getByRole('row').filter({ hasText: flaky.url });
      await row.getByRole('button', { name: 'Deliveries' }).click();
      const log = page.getByRole('dialog', { name: `Deliveries to ${flaky.url}` });
      await log.getByText('Given up', { exact: true }).waitFor();
      await log.getByRole('button', { name: 'Redeliver' }).click();
      const ask = page.getByRole('dialog', { name: /^Redeliver: / });
      await ask.getByLabel('Reason').fill('The MES was down for maintenance');
      await ask.getByRole('button', { name: 'Redeliver' }).click();
      await ask.waitFor({ state: 'hidden' });
      await expect
        .poll(() => flaky.received.map((r) => r.answered), { timeout: 15_000 })
        .toEqual([500, 500, 204]);
      await log.getByText('Delivered', { exact: true }).waitFor({ timeout: 15_000 });
      await expect.poll(() => log.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
    } finally {
      await flaky.close();
    }
  });
});
