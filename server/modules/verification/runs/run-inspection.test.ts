import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * The visual inspection of a run over HTTP (core/verification/README.md "Visual inspection"):
 * the cleaning inspection settings pinned when the cleaning starts, every rule answered at once
 * on its field with nothing changed, second-person verification, photo evidence, submit, the
 * release without a required visual, and hold maxima from the settings. The tests run in order:
 * each changes the facility's settings for the next.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event, inspect, visualPass, row, results, sign } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const started = { startedAt: '2026-11-01T08:00:00Z' };
const read = async (run: Body) => (await ok('GET', `/runs/${run.id}`)).run as Body;
const properties = (body: Body) => (body.errors as Body[]).map((e) => e.property);
const runAudit = (id: number) =>
  t.server.db.query<{ action: string; reason: string | null; new_values: Body }>(
    `select action, reason, new_values from audit_log where domain = 'Run' and entity_id = $1
      order by seq`,
    [String(id)],
  );

describe('recording the inspection (the default settings: 500 lux, 4 of 5 items mandatory)', () => {
  it('is refused without QualificationTask Modify', async () => {
    let run = await newRun(await kit.study());
    run = await event(run, started);
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await inspect(run, {}, as)).status).toBe(403);
    expect(
      (await call('POST', `/runs/${run.id}/inspection/verification`, { version: 1 }, as)).status,
    ).toBe(403);
  });

  it('waits for the cleaning to start, which pins the settings version in force', async () => {
    let run = await newRun(await kit.study());
    expect(run.inspection).toEqual({
      settingsVersion: null,
      settings: null,
      record: null,
      isComplete: false,
    });
    const early = await call('POST', `/runs/${run.id}/inspection`, {
      lightLux: 800,
      checklist: [],
      result: 'Pass',
      version: run.version,
    });
    expect(early.status).toBe(422);
    expect(properties(early.body)).toEqual(['inspectedAt']);
    run = await event(run, started);
    const settings = await ok('GET', '/cleaning-inspection-settings');
    expect(run.inspection.settingsVersion).toBe(settings.versionNumber);
    expect(run.inspection.settings).toMatchObject({ minimumLightLux: 500 });
    expect(run.inspection.settings.checklist).toHaveLength(5);
    const [edit] = (await runAudit(run.id as number)).filter((a) => a.action === 'Update');
    expect(edit!.new_values).toMatchObject({ inspectionSettingsVersion: settings.versionNumber });
    // The visual result is no longer a field of the cleaning event.
    const old = await call('POST', `/runs/${run.id}`, {
      reason: 'x',
      version: run.version,
      visualResult: 'Pass',
    });
    expect(old.status).toBe(422);
    expect(old.body.errName).toBe('DataValidationError');
  });

  it('refuses every broken rule at once, each on its field, and changes nothing', async () => {
    let run = await newRun(await kit.study());
    run = await event(run, { ...started, endedAt: '2026-11-01T10:00:00Z' });
    const res = await inspect(run, {
      lightLux: 300,
      inspectedAt: '2026-11-01T09:00:00Z',
      checklist: [
        { answer: 'Fail' },
        { answer: 'N/A' },
        { answer: 'Pass' },
        { answer: 'Pass' },
        { answer: 'N/A' },
      ],
      result: 'Pass',
    });
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(properties(res.body)).toEqual([
      'inspectedAt',
      'checklist[0].answer',
      'checklist[1].answer',
      'lightLux',
    ]);
    const messages = Object.fromEntries(
      (res.body.errors as Body[]).map((e) => [e.property, Object.values(e.constraints)[0]]),
    );
    expect(messages).toEqual({
      inspectedAt: 'The inspection cannot be before the cleaning ended',
      'checklist[0].answer': 'A mandatory item failed: the inspection cannot pass',
      'checklist[1].answer': 'A mandatory item cannot be N/A',
      lightLux:
        '300 lux is below the minimum of 500 lux: a Pass needs enough light to see residue; raise the light and inspect again',
    });
    const missing = await inspect(run, { checklist: [{ answer: 'Pass' }] });
    expect(properties(missing.body)).toEqual(['checklist']);
    const future = await inspect(run, { inspectedAt: '2099-01-01T00:00:00Z' });
    expect(properties(future.body)).toEqual(['inspectedAt']);
    const noNotes = await inspect(run, { result: 'Fail', notes: '  ' });
    expect(noNotes.status).toBe(422);
    expect(properties(noNotes.body)).toEqual(['notes']);
    const after = await read(run);
    expect(after.version).toBe(run.version);
    expect(after.inspection.record).toBeNull();
    expect(after.event.visualResult).toBeNull();
  });

  it('records a Fail seen in poor light, and a Pass over it with a reason', async () => {
    let run = await newRun(await kit.study());
    run = await event(run, started);
    const failed = await inspect(run, {
      lightLux: 200,
      result: 'Fail',
      notes: 'White film on the valve seat',
      checklist: [
        { answer: 'Fail' },
        { answer: 'Pass' },
        { answer: 'Pass' },
        { answer: 'Pass' },
        { answer: 'Fail' },
      ],
    });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    run = failed.body.run;
    expect(run).toMatchObject({ verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' });
    expect(run.releaseReasons).toContain('Visual inspection failed');
    expect(run.event).toMatchObject({
      visualResult: 'Fail',
      visualNotes: 'White film on the valve seat',
    });
    expect(run.inspection.record).toMatchObject({
      inspectorName: expect.any(String),
      lightLux: 200,
      result: 'Fail',
      verifiedById: null,
    });
    expect(run.inspection.record.inspectorId).toEqual(expect.any(Number));
    expect(run.inspection.record.checklist[0]).toEqual({
      item: 'No visible residue on product-contact surfaces',
      isMandatory: true,
      answer: 'Fail',
    });

    const noReason = await inspect(run);
    expect(noReason.status).toBe(422);
    expect(properties(noReason.body)).toEqual(['reason']);
    run = await visualPass(run, { reason: 'Recleaned and inspected again' });
    expect(run.inspection.record.result).toBe('Pass');
    expect(run.inspection.isComplete).toBe(true);
    expect(run.verdict).toBe('Pending');
    const audit = (await runAudit(run.id as number)).filter(
      (a) => 'inspection' in (a.new_values ?? {}),
    );
    expect(audit.map((a) => [a.action, a.reason, a.new_values.inspection.result])).toEqual([
      ['Update', null, 'Fail'],
      ['Update', 'Recleaned and inspected again', 'Pass'],
    ]);
  });
});

describe('second-person verification and photo evidence', () => {
  it('the inspector cannot verify; a second person does; submit waits for it', async () => {
    await kit.inspectionSettings({
      requireSecondPersonVerification: true,
      requirePhotoEvidence: true,
    });
    let run = await newRun(await kit.study());
    run = await event(run, started);
    expect(run.inspection.settings).toMatchObject({
      requireSecondPersonVerification: true,
      requirePhotoEvidence: true,
    });
    const noPhoto = await inspect(run);
    expect(noPhoto.status).toBe(422);
    expect(properties(noPhoto.body)).toEqual(['evidenceReference']);
    run = await visualPass(run, { evidenceReference: 'DMS-PHOTO-0042' });
    expect(run.inspection.isComplete).toBe(false);
    expect(run.inspection.record.evidenceReference).toBe('DMS-PHOTO-0042');
    const entered = await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    run = entered.body.run;
    const early = await sign(run, 'Submit');
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('The visual inspection is not verified by a second person');

    const verify = (as?: string) =>
      call('POST', `/runs/${run.id}/inspection/verification`, { version: run.version }, as);
    const self = await verify();
    expect(self.status).toBe(422);
    expect(self.body.errors).toEqual([
      {
        property: 'verifiedBy',
        constraints: {
          secondPerson:
            'The verifier cannot be the inspector: a second person verifies the inspection',
        },
      },
    ]);
    const vera = await kit.secondPerson();
    const verified = await verify(vera.token);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    run = verified.body.run;
    expect(run.inspection.record).toMatchObject({ verifiedById: vera.id });
    expect(run.inspection.record.verifiedByName).toMatch(/^Vera/);
    expect(run.inspection.isComplete).toBe(true);
    expect((await verify(vera.token)).body.errName).toBe('NothingToChangeError');

    // Recording it again needs verifying again.
    run = await visualPass(run, { evidenceReference: 'DMS-PHOTO-0043', reason: 'New photo' });
    expect(run.inspection.record.verifiedById).toBeNull();
    expect((await sign(run, 'Submit')).status).toBe(409);
    run = (await verify(vera.token)).body.run;
    expect((await sign(run, 'Submit')).status).toBe(200);
    const audit = await runAudit(run.id as number);
    expect(audit.filter((a) => 'inspectionVerifiedBy' in (a.new_values ?? {}))).toHaveLength(2);
  });

  it('a run keeps the settings it pinned when they change later', async () => {
    let pinned = await newRun(await kit.study());
    pinned = await event(pinned, started);
    const version = pinned.inspection.settingsVersion as number;
    await kit.inspectionSettings({
      requireSecondPersonVerification: false,
      requirePhotoEvidence: false,
      minimumLightLux: 1000,
    });
    pinned = await read(pinned);
    expect(pinned.inspection.settingsVersion).toBe(version);
    // Still judged with photos required and 500 lux.
    expect(properties((await inspect(pinned)).body)).toEqual(['evidenceReference']);
    pinned = await visualPass(pinned, { evidenceReference: 'DMS-PHOTO-7' });
    expect(pinned.inspection.isComplete).toBe(false);

    let later = await newRun(await kit.study());
    later = await event(later, started);
    expect(later.inspection.settingsVersion).toBe(version + 1);
    expect(properties((await inspect(later)).body)).toEqual(['lightLux']);
    later = await visualPass(later, { lightLux: 1200 });
    expect(later.inspection.isComplete).toBe(true);
  });
});

describe('the release with the inspection settings', () => {
  it('does not wait for a visual the settings do not require; hold maxima fall back to the settings', async () => {
    await kit.inspectionSettings({
      visualInspectionRequired: false,
      minimumLightLux: 500,
      dirtyHoldTimeHours: 12,
      cleanHoldTimeHours: 48,
    });
    const noMaxima = await kit.study({
      dirtyHoldMaxHours: undefined,
      cleanHoldMaxHours: undefined,
    });
    let breach = await newRun(noMaxima);
    breach = await event(breach, { ...started, dirtyHoldHours: 20, cleanHoldHours: 10 });
    breach = (await results(breach, [row(breach, f.steel, 0.2), row(breach, f.ptfe, 0.2)])).body
      .run;
    expect(breach).toMatchObject({
      releaseFlag: 'CAN_NOT_BE_RELEASED',
      dirtyHoldMaxHours: 12,
      dirtyHoldMaxSource: 'inspection settings',
      cleanHoldMaxHours: 48,
      cleanHoldMaxSource: 'inspection settings',
    });
    expect(breach.releaseReasons).toEqual([
      "Dirty hold time 20 h exceeds the cleaning inspection settings' maximum (the protocol sets none) of 12 h",
    ]);

    let free = await newRun(noMaxima);
    free = await event(free, { ...started, dirtyHoldHours: 10 });
    free = (await results(free, [row(free, f.steel, 0.2), row(free, f.ptfe, 0.2)])).body.run;
    expect(free).toMatchObject({ releaseFlag: 'CAN_BE_RELEASED', verdict: 'Pass' });
    expect(free.releaseReasons).toEqual([
      'Visual inspection not required by the cleaning inspection settings',
      'All 2 planned locations passed',
    ]);
    expect((await sign(free, 'Submit')).status).toBe(200);

    // The protocol's own maximum (24 h) governs over the settings' 12 h.
    let own = await newRun(await kit.study());
    own = await event(own, { ...started, dirtyHoldHours: 20 });
    expect(own).toMatchObject({ dirtyHoldMaxHours: 24, dirtyHoldMaxSource: 'protocol' });
    expect(own.releaseReasons.join(' ')).not.toMatch(/hold time/);
  });
});
