import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { until } from '#server/test/until.ts';
import { startReceiver } from '#server/test/webhook-receiver.ts';
import { hostProblem, isInternalAddress } from './webhook-targets.ts';

/*
 * Server-side request forgery: without WEBHOOK_ALLOWED_HOSTS no hook reaches the server itself,
 * the plant's network or a cloud metadata address, neither when it is saved nor when a name
 * resolves to such an address at delivery.
 */

const t = useFacilityTestServer({ WEBHOOK_POLL_SECONDS: '0.05', WEBHOOK_RETRY_SECONDS: '0.05' });
const receivers: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

describe('where a webhook may post', () => {
  it('tells internal addresses from public ones, IPv4, IPv6 and IPv4 inside IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.20.30.40',
      '172.31.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
    ])
      expect(isInternalAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])
      expect(isInternalAddress(address), address).toBe(false);
  });

  it('takes only the listed hosts when WEBHOOK_ALLOWED_HOSTS is set, private ones too', () => {
    const allowed = loadConfig({
      WEBHOOK_ALLOWED_HOSTS: ' MES.plant.example, *.lims.example,10.0.0.7 ',
    }).WEBHOOK_ALLOWED_HOSTS;
    expect(allowed).toEqual(['mes.plant.example', '*.lims.example', '10.0.0.7']);
    expect(hostProblem('https://mes.plant.example/in', allowed)).toBeNull();
    expect(hostProblem('https://a.b.lims.example/in', allowed)).toBeNull();
    expect(hostProblem('http://10.0.0.7:8080/in', allowed)).toBeNull();
    expect(hostProblem('https://lims.example/in', allowed)).toBe(
      'lims.example is not a host webhooks may post to (WEBHOOK_ALLOWED_HOSTS)',
    );
    expect(hostProblem('https://evil-lims.example/in', allowed)).not.toBeNull();
    expect(hostProblem('http://127.0.0.1/in', allowed)).not.toBeNull();
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://x.example/' })).toThrow(
      /WEBHOOK_ALLOWED_HOSTS: "http:\/\/x\.example\/" is not a host name/,
    );
    expect(loadConfig({ WEBHOOK_ALLOWED_HOSTS: '' }).WEBHOOK_ALLOWED_HOSTS).toBeUndefined();
  });

  it('refuses a loopback, private or metadata URL on its field, and saves nothing', async () => {
    const before = await t.server.db.query('select id from webhooks');
    for (const [url, host] of [
      ['http://127.0.0.1:9/hooks', '127.0.0.1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['http://[::1]:8080/hooks', '::1'],
      ['http://10.1.2.3/hooks', '10.1.2.3'],
      ['http://2130706433/hooks', '127.0.0.1'],
    ]) {
      const res = await t.call('POST', `${t.F}/webhooks`, { url, events: ['limits.changed'] });
      expect(res.status, url).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      expect(res.body.errors).toEqual([
        {
          property: 'url',
          constraints: {
            target: `${host} is a loopback, private or link-local address: list the host in WEBHOOK_ALLOWED_HOSTS to post there`,
          },
        },
      ]);
    }
    // A name is looked up when saved: localhost is the server itself.
    const named = await t.call('POST', `${t.F}/webhooks`, {
      url: 'http://localhost:9/hooks',
      events: ['limits.changed'],
    });
    expect(named.status).toBe(422);
    expect(named.body.errors[0].constraints.target).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback, private or link-local address/,
    );
    expect(await t.server.db.query('select id from webhooks')).toEqual(before);
  });

  it('checks the addresses a name resolves to again at each delivery, and posts nothing there', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const made = await t.call('POST', `${t.F}/webhooks`, {
      url: 'https://hooks.plant.example/in',
      events: ['record.approved'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.id as number;
    // The name now leads inside (DNS changed since the hook was saved): localhost stands in.
    const port = new URL(receiver.url).port;
    await t.server.db.query('update webhooks set url = $2 where id = $1', [
      id,
      `http://localhost:${port}/hooks`,
    ]);
    await t.server.db.transaction((tx) =>
      emitRecordEvent(tx, {
        facilityId: t.facilityId,
        event: 'record.approved',
        record: { type: 'SOP', id: 1 },
        data: {},
      }),
    );
    const [delivery] = await until(
      async () =>
        (await t.call('GET', `${t.F}/webhooks/${id}/deliveries`)).body.data as {
          state: string;
          attempts: { status: number | null; error: string }[];
        }[],
      (list) => list[0]?.state === 'failed',
    );
    expect(delivery!.attempts).toHaveLength(2);
    expect(delivery!.attempts[0]!.status).toBeNull();
    expect(delivery!.attempts[0]!.error).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback, private or link-local address.*EWEBHOOKTARGET/,
    );
    expect(receiver.received).toEqual([]);
  });
});
