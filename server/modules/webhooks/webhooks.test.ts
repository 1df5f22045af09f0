import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { startSignKit, type Person, type SignKit } from '#server/test/sign-test-kit.ts';
import { until } from '#server/test/until.ts';
import { housekeepingTasks } from '#server/jobs/jobs.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import { removeDeliveredWebhooks } from './webhooks.service.ts';
import {
  signatureHolds,
  startReceiver,
  type ReceivedBody as Body,
} from '#server/test/webhook-receiver.ts';

let kit: SignKit;
let editor: Person;
let approver: Person;
const receivers: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  // Fast retries: 0.1 s, 0.2 s, 0.2 s, then given up.
  kit = await startSignKit({
    WEBHOOK_POLL_SECONDS: '0.05',
    WEBHOOK_RETRY_SECONDS: '0.1,0.2,0.2',
    WEBHOOK_TIMEOUT_SECONDS: '2',
    // The receivers run on 127.0.0.1, which no hook reaches unless listed; *.example for hooks
    // that are only saved.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,*.example',
  });
  editor = await kit.person({ edit: true, sign: true, firstName: 'Edna' });
  approver = await kit.person({ sign: true, firstName: 'Abel' });
});
afterAll(async () => {
  await kit?.close();
  for (const receiver of receivers) await receiver.close();
});

async function receiver(answer?: (n: number, body: Body) => number) {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function hook(url: string, events: string[] = ['record.approved']): Promise<Body> {
  const res = await kit.call('POST', `${kit.F}/webhooks`, { url, events });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** An SOP taken through Submit and Approve; answers its id. */
async function approvedSop(id?: number): Promise<number> {
  const sopId = id ?? (await kit.createSop(editor)).id;
  expect((await kit.signSop(sopId, 'Submit', editor)).status).toBe(200);
  const approved = await kit.signSop(sopId, 'Approve', approver, { meaning: 'Approved' });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return sopId;
}

const deliveries = async (hookId: number) => {
  const res = await kit.call('GET', `${kit.F}/webhooks/${hookId}/deliveries?pageLimit=50`);
  expect(res.status).toBe(200);
  return res.body.data as Body[];
};

describe('webhooks: rights and input', () => {
  it('refuse a user without Facility Modify, and let Facility Get read them', async () => {
    const reader = await buildUser(kit.server.db, {
      facilityIds: [kit.facilityId],
      permissions: permissionsWith({ Facility: ['Get'] }),
    });
    const token = await kit.server.login(reader.username, reader.password);
    const as = (method: string, path: string, body?: unknown) =>
      kit.server.request<Body>(method, `${kit.F}${path}`, { token, ...(body ? { body } : {}) });
    const refused = await as('POST', '/webhooks', {
      url: 'https://plant.example/hooks',
      events: ['equipment.released'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errName).toBe('NotAllowed');
    const made = await hook('https://plant.example/hooks', ['equipment.released']);
    const edit = await as('POST', `/webhooks/${made.result.id}`, {
      events: ['limits.changed'],
      reason: 'More',
      version: 1,
    });
    expect(edit.status).toBe(403);
    const archive = await as('PUT', `/webhooks/${made.result.id}/archive`, {
      reason: 'Gone',
      version: 1,
    });
    expect(archive.status).toBe(403);
    const list = await as('GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((h: Body) => h.id)).toContain(made.result.id);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    expect((await as('GET', `/webhooks/${made.result.id}/deliveries`)).status).toBe(200);
    // Without the facility's Get the hooks are not even listed.
    const stranger = await buildUser(kit.server.db, {
      facilityIds: [kit.facilityId],
      permissions: permissionsWith({ CleaningProcedure: ['Get'] }),
    });
    const strangerToken = await kit.server.login(stranger.username, stranger.password);
    const hidden = await kit.server.request('GET', `${kit.F}/webhooks`, { token: strangerToken });
    expect(hidden.status).toBe(403);
  });

  // The catalogue answers invalid input with 422 DataValidationError, one message per field.
  it('refuse a URL that is not http(s), an unknown event and a short secret, per field', async () => {
    const before = await kit.server.db.query('select id from webhooks order by id');
    const bad = async (body: Record<string, unknown>, property: string) => {
      const res = await kit.call('POST', `${kit.F}/webhooks`, {
        url: 'https://plant.example/hooks',
        events: ['record.approved'],
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      expect(res.body).toHaveProperty('message');
      expect(JSON.stringify(res.body.errors)).toContain(property);
      return res.body;
    };
    expect(JSON.stringify((await bad({ url: 'ftp://plant.example/in' }, 'url')).errors)).toContain(
      'Enter an http:// or https:// URL',
    );
    await bad({ url: 'javascript:alert(1)' }, 'url');
    // WEBHOOK_ALLOWED_HOSTS is set here: a host it does not list is refused.
    expect((await bad({ url: 'https://mes.elsewhere.test/in' }, 'url')).errors).toEqual([
      {
        property: 'url',
        constraints: {
          target: 'mes.elsewhere.test is not a host webhooks may post to (WEBHOOK_ALLOWED_HOSTS)',
        },
      },
    ]);
    await bad({ url: 'not a url' }, 'url');
    await bad({ events: ['equipment.exploded'] }, 'events');
    await bad({ events: [] }, 'events');
    await bad({ events: ['record.approved', 'record.approved'] }, 'events');
    await bad({ secret: 'short' }, 'secret');
    expect(await kit.server.db.query('select id from webhooks order by id')).toEqual(before);
  });
});

describe('webhooks: the record', () => {
  it('answers the secret once, keeps it encrypted and out of audit and history, and is edited, archived and unarchived with reasons', async () => {
    const made = await hook('https://plant.example/a', ['record.approved']);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const id = made.result.id as number;
    const got = await kit.call('GET', `${kit.F}/webhooks/${id}`);
    expect(got.body).toMatchObject({ id, url: 'https://plant.example/a', version: 1 });
    expect(JSON.stringify(got.body)).not.toContain(made.secret);
    const [stored] = await kit.server.db.query<{ secret_encrypted: string }>(
      'select secret_encrypted from webhooks where id = $1',
      [id],
    );
    expect(stored!.secret_encrypted).not.toContain(made.secret);
    const created = await kit.lastAudit('Webhook', 'Create');
    expect(created?.new_values).toEqual({
      url: 'https://plant.example/a',
      events: ['record.approved'],
      secretSet: true,
    });

    const stale = await kit.call('POST', `${kit.F}/webhooks/${id}`, {
      url: 'https://plant.example/b',
      reason: 'Moved',
      version: 7,
    });
    expect(stale.status).toBe(409);
    const edited = await kit.call('POST', `${kit.F}/webhooks/${id}`, {
      url: 'https://plant.example/b',
      events: ['record.approved', 'limits.changed'],
      rotateSecret: true,
      reason: 'Moved to the new MES',
      version: 1,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.result).toMatchObject({ url: 'https://plant.example/b', version: 2 });
    expect(edited.body.secret).toMatch(/^whsec_/);
    expect(edited.body.secret).not.toBe(made.secret);
    const update = await kit.lastAudit('Webhook', 'Update');
    expect(update).toMatchObject({ reason: 'Moved to the new MES' });
    expect(update?.new_values).toEqual({
      url: 'https://plant.example/b',
      events: ['record.approved', 'limits.changed'],
      secretChanged: true,
    });
    const history = await kit.server.db.query<{ row_data: Body }>(
      `select row_data from record_versions where table_name = 'webhooks' and record_id = $1`,
      [id],
    );
    expect(history.length).toBeGreaterThan(0);
    expect(JSON.stringify(history)).not.toContain('secret');
    // A secret of the receiver's own is write-only: it is not answered back.
    const own = await kit.call('POST', `${kit.F}/webhooks/${id}`, {
      secret: 'a-secret-of-our-own-1234',
      reason: 'Our own secret',
      version: 2,
    });
    expect(own.status).toBe(200);
    expect(own.body.secret).toBeUndefined();
    const nothing = await kit.call('POST', `${kit.F}/webhooks/${id}`, {
      url: 'https://plant.example/b',
      reason: 'Same',
      version: 3,
    });
    expect(nothing.status).toBe(400);

    const archived = await kit.call('PUT', `${kit.F}/webhooks/${id}/archive`, {
      reason: 'MES retired',
      version: 3,
    });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ archiveReason: 'MES retired', version: 4 });
    expect(await kit.lastAudit('Webhook', 'Archive')).toMatchObject({ reason: 'MES retired' });
    const listed = await kit.call('GET', `${kit.F}/webhooks?archived=true`);
    expect(listed.body.data.map((h: Body) => h.id)).toContain(id);
    const back = await kit.call('PUT', `${kit.F}/webhooks/${id}/unarchive`, {
      reason: 'Back in use',
      version: 4,
    });
    expect(back.status).toBe(200);
    expect(back.body.archivedAt).toBeNull();
  });
});

describe('webhooks: delivery', () => {
  it('posts an approval signed with the secret shown once, in the transaction of the change', async () => {
    const target = await receiver();
    const made = await hook(target.url, ['record.approved']);
    const sopId = await approvedSop();
    const [got] = await until(
      async () => target.received.filter((r) => r.body.data.documentId === sopId),
      (list) => list.length === 1,
    );
    expect(got!.body).toMatchObject({
      event: 'record.approved',
      planId: kit.planId,
      facilityId: kit.facilityId,
      record: { type: 'SOP', id: sopId },
      data: { documentType: 'SOP', documentId: sopId, versionNumber: 1 },
    });
    expect(got!.headers['x-carryover-event']).toBe('record.approved');
    expect(signatureHolds(made.secret, got!.headers['x-carryover-signature'], got!.raw)).toBe(true);
    // A body changed on the way, or another secret, does not verify.
    expect(signatureHolds(made.secret, got!.headers['x-carryover-signature'], `${got!.raw} `)).toBe(
      false,
    );
    expect(signatureHolds('whsec_other', got!.headers['x-carryover-signature'], got!.raw)).toBe(
      false,
    );
    const log = await until(
      () => deliveries(made.result.id),
      (list) => list.some((d) => d.record.id === sopId && d.state === 'delivered'),
    );
    const mine = log.find((d) => d.record.id === sopId)!;
    expect(mine.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 204, error: null }),
    ]);
  });

  it('writes nothing for a change that rolled back, nor for an event no hook asks for', async () => {
    const before = await kit.server.db.query('select id from webhook_events');
    await expect(
      kit.server.db.transaction(async (tx) => {
        await emitRecordEvent(tx, {
          facilityId: kit.facilityId,
          event: 'record.approved',
          record: { type: 'SOP', id: 999_999 },
          data: {},
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await kit.server.db.transaction((tx) =>
      emitRecordEvent(tx, {
        facilityId: kit.facilityId,
        event: 'changeAssessment.approved',
        record: { type: 'ChangeAssessment', id: 1 },
        data: {},
      }),
    );
    expect(await kit.server.db.query('select id from webhook_events')).toEqual(before);
  });

  it('retries a receiver that fails until it recovers, keeps the order per record, and logs every try', async () => {
    // The first two posts fail (500, then 503); every later one is taken.
    const target = await receiver((n) => (n === 1 ? 500 : n === 2 ? 503 : 200));
    const made = await hook(target.url, ['record.approved']);
    const sopId = await approvedSop();
    expect((await kit.editSop(sopId, editor)).status).toBe(200);
    await approvedSop(sopId);
    const log = await until(
      () => deliveries(made.result.id),
      (list) => list.length === 2 && list.every((d) => d.state === 'delivered'),
    );
    // Version 2's event waited for version 1's, which was tried three times.
    expect(target.received.map((r) => [r.body.data.versionNumber, r.answered])).toEqual([
      [1, 500],
      [1, 503],
      [1, 200],
      [2, 200],
    ]);
    const [second, first] = log;
    expect(first!.attempts.map((a: Body) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(first!.attempts[0].error).toBe('The receiver answered HTTP 500');
    expect(second!.attempts.map((a: Body) => a.status)).toEqual([200]);
    // The same event, the same body, each time.
    expect(new Set(target.received.slice(0, 3).map((r) => r.raw)).size).toBe(1);
  });

  it('gives a delivery up after the last retry, then delivers the next one of the record', async () => {
    let failing = true;
    const target = await receiver(() => (failing ? 500 : 200));
    const made = await hook(target.url, ['record.approved']);
    const sopId = await approvedSop();
    const log = await until(
      () => deliveries(made.result.id),
      (list) => list[0]?.state === 'failed',
    );
    // One try and the three retries of WEBHOOK_RETRY_SECONDS.
    expect(log[0]!.attempts).toHaveLength(4);
    expect(log[0]!.nextAttemptAt).toBeNull();
    const listed = await kit.call('GET', `${kit.F}/webhooks/${made.result.id}`);
    expect(listed.body).toMatchObject({ failed: 1, pending: 0 });
    failing = false;
    expect((await kit.editSop(sopId, editor)).status).toBe(200);
    await approvedSop(sopId);
    await until(
      () => deliveries(made.result.id),
      (list) => list.length === 2 && list[0]!.state === 'delivered',
    );
  });

  it('tells a refused connection in the log and delivers nothing for an archived hook', async () => {
    const gone = await startReceiver();
    await gone.close();
    const made = await hook(gone.url, ['record.approved']);
    await approvedSop();
    const log = await until(
      () => deliveries(made.result.id),
      (list) => (list[0]?.attempts.length ?? 0) >= 1,
    );
    expect(log[0]!.attempts[0]).toMatchObject({ status: null });
    expect(log[0]!.attempts[0].error).toMatch(/ECONNREFUSED|fetch failed/);

    const quiet = await receiver();
    const paused = await hook(quiet.url, ['record.approved']);
    const archived = await kit.call('PUT', `${kit.F}/webhooks/${paused.result.id}/archive`, {
      reason: 'Paused',
      version: 1,
    });
    expect(archived.status).toBe(200);
    await approvedSop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(quiet.received).toEqual([]);
    expect(await deliveries(paused.result.id)).toEqual([]);
  });
});

describe('webhooks: sending again and retention', () => {
  /** A hook for the target whose delivery of an approval was given up. */
  async function givenUp(target: { url: string }) {
    const made = await hook(target.url, ['record.approved']);
    const hookId = made.result.id as number;
    await approvedSop();
    const [given] = await until(
      () => deliveries(hookId),
      (list) => list[0]?.state === 'failed',
    );
    return { hookId, given: given! };
  }

  it('sends a delivery that was given up again, for an administrator with a reason, audited', async () => {
    let failing = true;
    const target = await receiver(() => (failing ? 500 : 204));
    const { hookId, given } = await givenUp(target);
    const path = `${kit.F}/webhooks/${hookId}/deliveries/${given.id}/redeliver`;
    // Facility Get reads the log but does not send again.
    const reader = await buildUser(kit.server.db, {
      facilityIds: [kit.facilityId],
      permissions: permissionsWith({ Facility: ['Get'] }),
    });
    const token = await kit.server.login(reader.username, reader.password);
    const refused = await kit.server.request<Body>('POST', path, {
      token,
      body: { reason: 'MES was down' },
    });
    expect(refused.status).toBe(403);
    expect((await kit.call('POST', path, {})).status).toBe(422);

    failing = false;
    const sent = await kit.call('POST', path, { reason: 'MES was down overnight' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ id: given.id, state: 'pending' });
    const [done] = await until(
      () => deliveries(hookId),
      (list) => list[0]?.state === 'delivered',
    );
    // The four tries given up keep their numbers; the fifth is the one sent again.
    expect(done!.attempts.map((a: Body) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 204],
    ]);
    expect(new Set(target.received.map((r) => r.raw)).size).toBe(1);
    expect(await kit.lastAudit('Webhook', 'Redeliver')).toMatchObject({
      reason: 'MES was down overnight',
      new_values: {
        deliveryId: given.id,
        eventId: given.eventId,
        event: 'record.approved',
        url: target.url,
      },
    });
    // A delivered one is not sent again.
    const again = await kit.call('POST', path, { reason: 'Once more' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      errName: 'TransactionLocked',
      message: 'The delivery was received: it is not sent again',
    });
    const missing = await kit.call(
      'POST',
      `${kit.F}/webhooks/${hookId}/deliveries/999999999/redeliver`,
      { reason: 'None' },
    );
    expect(missing.status).toBe(404);
  });

  it('sends again with the retries of a first delivery, and gives up again after them', async () => {
    const { hookId, given } = await givenUp(await receiver(() => 503));
    const sent = await kit.call(
      'POST',
      `${kit.F}/webhooks/${hookId}/deliveries/${given.id}/redeliver`,
      { reason: 'Receiver redeployed' },
    );
    expect(sent.status).toBe(200);
    const [again] = await until(
      () => deliveries(hookId),
      (list) => list[0]?.state === 'failed' && list[0].attempts.length > 4,
    );
    expect(again!.attempts).toHaveLength(8);
  });

  it('removes delivered events past the retention with the housekeeping, and keeps the rest', async () => {
    expect(housekeepingTasks().map(([name]) => name)).toContain('webhookRetention');
    // The file's other hooks stop first: a delivery of theirs still being retried (a receiver
    // of an earlier test answers 503) would write its attempt over the delivered state this test
    // sets below, and keep the older event (the delivery worker runs beside the test).
    const others = await kit.call('GET', `${kit.F}/webhooks`);
    for (const other of others.body.data as Body[]) {
      const archived = await kit.call('PUT', `${kit.F}/webhooks/${other.id}/archive`, {
        reason: 'Retention test: only its own hook receives',
        version: other.version,
      });
      expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    }
    const target = await receiver(() => 204);
    const made = await hook(target.url, ['record.approved']);
    const hookId = made.result.id as number;
    await approvedSop();
    await approvedSop();
    const log = await until(
      () => deliveries(hookId),
      (list) => list.length === 2 && list.every((d) => d.state === 'delivered'),
    );
    const [newer, older] = log;
    // Every hook of the older event received it 91 days ago (other hooks of this file ask too).
    await kit.server.db.query(
      `update webhook_deliveries set state = 'delivered', delivered_at = now() - interval '91 days'
        where event_id = $1`,
      [older!.eventId],
    );
    const failedBefore = await kit.server.db.query(
      `select id from webhook_deliveries where state <> 'delivered' order by id`,
    );
    expect(await removeDeliveredWebhooks(kit.server.db, 90)).toBeGreaterThanOrEqual(1);
    expect((await deliveries(hookId)).map((d) => d.id)).toEqual([newer!.id]);
    const events = await kit.server.db.query('select id from webhook_events where id = any($1)', [
      [older!.eventId, newer!.eventId],
    ]);
    expect(events.map((e) => Number((e as { id: number }).id))).toEqual([newer!.eventId]);
    expect(
      await kit.server.db.query(
        `select id from webhook_deliveries where state <> 'delivered' order by id`,
      ),
    ).toEqual(failedBefore);
    expect(
      await kit.server.db.query('select id from webhook_attempts where delivery_id = $1', [
        older!.id,
      ]),
    ).toEqual([]);
  });
});
