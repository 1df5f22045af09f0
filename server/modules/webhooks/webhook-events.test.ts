import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { until } from '#server/test/until.ts';
import { startReceiver, type ReceivedBody as Body } from '#server/test/webhook-receiver.ts';

/*
 * The events of verification (issue 33), from the writes that cause them: a limits snapshot put
 * in force, a result that fails its limit, a run's release flag that moves, equipment released
 * with its signature. Posted to a receiver
 * the test starts on 127.0.0.1.
 */

const t = useFacilityTestServer({
  WEBHOOK_POLL_SECONDS: '0.05',
  WEBHOOK_RETRY_SECONDS: '0.1',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
});
const kit = runKit(t);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let f: RunFacility;
let hookId: number;

beforeAll(async () => {
  receiver = await startReceiver();
  const made = await t.call('POST', `${t.F}/webhooks`, {
    url: receiver.url,
    events: ['run.releaseFlagChanged', 'result.failed', 'limits.changed', 'equipment.released'],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  hookId = made.body.result.id as number;
  f = await kit.build();
});
afterAll(async () => {
  await receiver?.close();
});

const received = (event: string, which: (b: Body) => boolean = () => true) =>
  receiver.received.map((r) => r.body).filter((b) => b.event === event && which(b));

describe('events of verification', () => {
  it('tells of limits put in force, with the snapshot', async () => {
    const [limits] = await until(
      async () => received('limits.changed', (b) => b.data.limitsSnapshotId === f.snapshotId),
      (list) => list.length === 1,
    );
    expect(limits).toMatchObject({
      facilityId: t.facilityId,
      record: { type: 'FacilityLimits', id: t.facilityId },
      data: { documentType: 'CleaningInspectionSettings', versionNumber: 1 },
    });
    expect(limits!.data.outputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("tells of a run's release flag each time it moves, in order", async () => {
    const studyId = await kit.study();
    const run = await kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
    const entered = await kit.results(run, [kit.row(run, f.steel, 0.2), kit.row(run, f.ptfe, 0.2)]);
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    const now = (await kit.ok('GET', `/runs/${run.id}`)).run as Body;
    expect(now.releaseFlag).toBe('CAN_BE_RELEASED');
    const flags = await until(
      async () => received('run.releaseFlagChanged', (b) => b.record.id === run.id),
      (list) => list.at(-1)?.data.releaseFlag === 'CAN_BE_RELEASED',
    );
    // Each event starts where the one before it ended, and none repeats a flag.
    flags.forEach((event, i) => {
      expect(event.record).toEqual({ type: 'Run', id: run.id });
      // A new run is not releasable until its results say so.
      expect(event.data.previousReleaseFlag).toBe(
        i === 0 ? 'CAN_NOT_BE_RELEASED' : flags[i - 1]!.data.releaseFlag,
      );
      expect(event.data.releaseFlag).not.toBe(event.data.previousReleaseFlag);
    });
    expect(flags.at(-1)!.data).toMatchObject({ verdict: now.verdict, studyId });
  });

  it('tells of a result that fails its limit, once', async () => {
    const studyId = await kit.study();
    const run = await kit.inspectedRun(studyId, '2026-11-03T08:00:00Z');
    const entered = await kit.results(run, [kit.row(run, f.steel, 2), kit.row(run, f.ptfe, 0.2)]);
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    const failed = await until(
      async () => received('result.failed', (b) => b.data.runId === run.id),
      (list) => list.length === 1,
    );
    const [stored] = await t.server.db.query<{ id: number }>(
      'select id from sample_results where run_id = $1 and passed = false',
      [run.id],
    );
    expect(failed[0]).toMatchObject({
      record: { type: 'SampleResult', id: stored!.id },
      data: { runId: run.id, samplingLocation: 'Valve' },
    });
    expect(failed[0]!.data.percentOfLimit).toBeGreaterThan(100);
    // The run's flag moved with it, to not releasable.
    await until(
      async () => received('run.releaseFlagChanged', (b) => b.record.id === run.id),
      (list) => list.at(-1)?.data.releaseFlag === 'CAN_NOT_BE_RELEASED',
    );
  });

  it('tells of equipment released, with the signature of the release', async () => {
    const made = await t.call('POST', `${t.F}/equipments`, {
      name: 'Granulator W1',
      surfaceArea: { value: 2, unit: 'sqm' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.id as number;
    // Cleaned by one person, released by another (21 CFR 211.67).
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ Equipment: ['Get', 'Modify'], ApprovalPolicy: ['Sign'] }),
    });
    const cleaner = await t.server.login(user.username, user.password);
    for (const event of ['CleaningStarted', 'CleaningEnded']) {
      const res = await t.call('POST', `${t.F}/equipment/${id}/logbook`, { event }, cleaner);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const released = await t.call('POST', `${t.F}/equipment/${id}/logbook`, {
      event: 'Released',
      password: ADMIN.password,
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const [event] = await until(
      async () => received('equipment.released', (b) => b.record.id === id),
      (list) => list.length === 1,
    );
    expect(event).toMatchObject({
      record: { type: 'Equipment', id },
      data: { equipment: 'Granulator W1', entryId: released.body.entry.id, releasedAtRisk: false },
    });
    expect(event!.data.signatureId).toEqual(expect.any(Number));
  });

  it('names the record of each delivery in the log in words, never by type and id', async () => {
    const log = await t.call('GET', `${t.F}/webhooks/${hookId}/deliveries?pageLimit=100`);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const subjects = new Set((log.body.data as { subject: string }[]).map((d) => d.subject));
    expect(subjects).toContain('Equipment ‘Granulator W1’');
    expect([...subjects].some((s) => /^Run ‘ST-\d{4} run \d+’$/.test(s))).toBe(true);
    expect([...subjects].some((s) => /^Facility ‘.+’$/.test(s))).toBe(true);
    for (const subject of subjects) expect(subject).not.toMatch(/\d+$/);
  });
});
