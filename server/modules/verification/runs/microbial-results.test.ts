import { beforeAll, describe, expect, it } from 'vitest';
import { statisticsFromWire } from '#core/verification/statistics-columns.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, changePolicyInForce, policyApprover } from '#server/test/policy-in-force.ts';
import { NEEDS_INVESTIGATION } from './oos-rule.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Microbial results over HTTP: judged against the microbial limit policy pinned on the run at its
 * start (room grade of the location's equipment), refused when the policy takes none, corrected
 * and repeated like sample results, in the release flag, the submit check and the statistics.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event, visualPass, row, results, sign } = kit;
let f: RunFacility;
let plateMethod: number;
let endotoxinMethod: number;
const POLICY = 'microbial-cleaning-limit-policies';

const microbial = (run: Body, rows: unknown[], as?: string) =>
  call('POST', `/runs/${run.id}/microbial-results`, { results: rows }, as);
const plate = (location: number | null, rawValue: number, extra: Record<string, unknown> = {}) => ({
  key: `m${Math.random().toString(36).slice(2, 8)}`,
  samplingLocationId: location,
  kind: 'contactPlate',
  microbialMethodId: plateMethod,
  censoring: '=',
  rawValue,
  readAt: '2026-11-04T09:00:00Z',
  ...extra,
});
const startedRun = async (studyId: number) =>
  event(await newRun(studyId), { startedAt: '2026-11-01T08:00:00Z' });
const microbialOf = async (run: Body) => (await ok('GET', `/runs/${run.id}/microbial`)).microbial;

beforeAll(async () => {
  f = await kit.build();
  // E1 (the locations' equipment) stands in grade C: contact plate limit 25 CFU, alert 50 %.
  const grades = await ok('GET', '/room-grades');
  const c = (grades.data as Body[]).find((g) => g.grade === 'C')!;
  const e1 = (await ok('GET', '/equipments?search=E1')).data.find((e: Body) => e.name === 'E1');
  await ok('POST', `/room-grades/C`, {
    equipments: [e1.id],
    reason: 'Compounding room is grade C',
    version: c.version,
  });
  plateMethod = (
    await ok('POST', '/microbial-analytical-method', {
      name: 'TAMC contact plate',
      testType: 'TAMC',
      samplingMethod: 'Contact plate',
      resultUnit: 'CFU/plate',
    })
  ).result.id;
  endotoxinMethod = (
    await ok('POST', '/microbial-analytical-method', {
      name: 'LAL kinetic',
      testType: 'Endotoxin',
      samplingMethod: 'Rinse',
      resultUnit: 'EU/ml',
    })
  ).result.id;
});

/** An investigation of a microbial result, assignable laboratory cause, submitted and QA-approved. */
async function investigatedAway(resultId: number) {
  const opened = await ok('POST', `/microbial-results/${resultId}/investigations`, {
    findings: 'Plate overgrown by a contaminant of the incubator',
    outcome: 'assignableCause',
    causeCategory: 'sampleHandling',
    causeDescription: 'Incubator door left open (log p. 4)',
    conclusion: 'Invalid plate; re-swab',
  });
  const id = opened.investigation.id as number;
  for (const [action, as] of [
    ['Submit', adminEditor(t.token)],
    ['Approve', await policyApprover(t.server, t.F)],
  ] as const) {
    const res = await call(
      'POST',
      '/signatures',
      { documentType: 'Investigation', documentId: id, action, password: as.password },
      as.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

describe('microbial results', () => {
  it('are refused without QualificationTask Modify', async () => {
    const run = await startedRun(await kit.study());
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await microbial(run, [plate(f.steel, 2)], as)).status).toBe(403);
    expect((await call('GET', `/runs/${run.id}/microbial`, undefined, as)).status).toBe(200);
  });

  it('are judged by the server against the grade limit of the equipment, never by the client', async () => {
    const run = await startedRun(await kit.study());
    const side = await microbialOf(run);
    expect(side.pinnedVersionNumber).toBe(side.policy.versionNumber);
    expect(side.locations.map((l: Body) => l.roomGrade)).toEqual(['C', 'C', null]);
    const forged = await microbial(run, [{ ...plate(f.steel, 2), judgement: 'Pass' }]);
    expect(forged.status).toBe(422);
    expect((await microbialOf(run)).results).toEqual([]);
    const res = await microbial(run, [
      // 20 / 25 = 80 % ≥ 50 %: Alert
      plate(f.steel, 20),
      // 2 / 25 = 8 %: Pass
      { ...plate(f.ptfe, 2), kind: 'swab' },
      // final rinse, no growth below 1 CFU/ml: Pass at 1 / 100 = 1 %
      { ...plate(null, 1, { kind: 'rinse', censoring: '< LOD' }), microbialMethodId: null },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { results: saved } = await microbialOf(run);
    expect(
      saved.map((r: Body) => [
        r.samplingLocationName,
        r.kind,
        r.unit,
        r.roomGrade,
        r.judgement.limit,
        r.judgement.limitSource,
        r.judgement.percentOfLimit,
        r.judgement.judgement,
      ]),
    ).toEqual([
      ['Valve', 'contactPlate', 'CFU/plate', 'C', 25, 'Grade C contact plate', 80, 'Alert'],
      ['Gasket', 'swab', 'CFU/swab', 'C', 25, 'Grade C swab', 8, 'Pass'],
      ['Final rinse', 'rinse', 'CFU/ml', null, 100, 'Final rinse', 1, 'Pass'],
    ]);
    expect(saved[0].microbialMethodName).toBe('TAMC contact plate');
    expect(saved[0].readAt).toBe('2026-11-04T09:00:00.000Z');
    // An alert does not block release but is among the reasons.
    expect(res.body.run.releaseReasons).toContain(
      'Microbial alert level reached at Valve (Contact plate) (80 % of limit)',
    );
    const audit = await t.server.db.query<{ action: string; new_values: Body }>(
      `select action, new_values from audit_log where domain = 'MicrobialResult' and entity_id = $1`,
      [String(saved[0].id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create']);
    expect(audit[0]!.new_values.judgement.judgement).toBe('Alert');
  });

  it('report every problem of every row at once and save nothing', async () => {
    const run = await startedRun(await kit.study());
    const other = await ok('POST', '/microbial-analytical-method', {
      name: 'Archived TYMC',
      testType: 'TYMC',
      resultUnit: 'CFU/plate',
    });
    await ok('PUT', `/microbial-analytical-method/${other.result.id}/archive`, {
      reason: 'Retired',
    });
    const res = await microbial(run, [
      plate(999999, 2, { key: 'a' }),
      plate(null, 2, { key: 'b' }),
      plate(f.steel, 2, { key: 'c', microbialMethodId: endotoxinMethod }),
      plate(f.steel, 2, { key: 'd', microbialMethodId: other.result.id }),
      plate(f.steel, 2, { key: 'e', microbialMethodId: 999999 }),
      plate(f.steel, 2, { key: 'f', repeats: { resultId: 999999, kind: 'retest', reason: 'x' } }),
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('SampleChangesError');
    expect(
      Object.fromEntries(
        (res.body.errors as Body[]).map((e) => [e.property, Object.values(e.constraints)[0]]),
      ),
    ).toEqual({
      'a.samplingLocationId': "This location is not in the run's sampling plan",
      'b.kind': 'The final rinse takes a rinse or endotoxin result only',
      'c.microbialMethodId': 'An endotoxin method gives endotoxin results only',
      'd.microbialMethodId': 'No such microbial analytical method in this facility',
      'e.microbialMethodId': 'No such microbial analytical method in this facility',
      'f.repeats': 'A repeat repeats a result of the same run',
    });
    expect((await microbialOf(run)).results).toEqual([]);
  });

  it('fail above the limit: the run fails and cannot be released, naming the location; a retest supersedes it, a correction is re-judged', async () => {
    const run = await startedRun(await kit.study());
    await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    await visualPass((await ok('GET', `/runs/${run.id}`)).run);
    // TNTC with an upper counting limit of 300 > 25: Fail.
    const failed = await microbial(run, [plate(f.steel, 300, { censoring: '> upper limit' })]);
    expect(failed.body.run.verdict).toBe('Fail');
    expect(failed.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(failed.body.run.releaseReasons).toEqual([
      'A microbial result failed at Valve (Contact plate)',
    ]);
    const original = (await microbialOf(run)).results[0];
    expect(original.judgement.judgement).toBe('Fail');
    const noReason = await microbial(run, [
      plate(f.steel, 3, { repeats: { resultId: original.id, kind: 'retest' } }),
    ]);
    expect(noReason.status).toBe(422);
    const otherKind = await microbial(run, [
      plate(f.steel, 3, {
        kind: 'swab',
        repeats: { resultId: original.id, kind: 'reswab', reason: 'Plate overgrown' },
      }),
    ]);
    expect(otherKind.body.errors[0].constraints.invalid).toBe(
      'A repeat is the same microbial test as the result it repeats',
    );
    const reswab = () =>
      microbial(run, [
        plate(f.steel, 3, {
          repeats: { resultId: original.id, kind: 'reswab', reason: 'Plate overgrown' },
        }),
      ]);
    // FDA OOS guidance: a reason alone does not set a failure aside; an investigation QA
    // approved with an assignable laboratory cause does (investigations.test.ts).
    const reasonOnly = await reswab();
    expect(reasonOnly.status).toBe(422);
    expect(reasonOnly.body.errors[0].constraints.invalid).toBe(NEEDS_INVESTIGATION);
    await investigatedAway(original.id);
    const retest = await reswab();
    expect(retest.status, JSON.stringify(retest.body)).toBe(200);
    expect(retest.body.run.verdict).toBe('Pass');
    expect(retest.body.run.releaseFlag).toBe('CAN_BE_RELEASED');
    const side = await microbialOf(run);
    expect(side.results.map((r: Body) => [r.supersededBy, r.repeats?.resultId ?? null])).toEqual([
      [side.results[1].id, null],
      [null, original.id],
    ]);
    const again = await microbial(run, [
      plate(f.steel, 3, { repeats: { resultId: original.id, kind: 'reswab', reason: 'Again' } }),
    ]);
    expect(again.body.errors[0].constraints.invalid).toBe('That result has already been repeated');

    // Correction: 3 → 30 CFU (a transcription error), with a reason and the version.
    const repeat = side.results[1];
    const stale = await call('POST', `/microbial-results/${repeat.id}`, {
      rawValue: 30,
      reason: 'Transcription error',
      version: repeat.version + 1,
    });
    expect(stale.status).toBe(409);
    const noReasonEdit = await call('POST', `/microbial-results/${repeat.id}`, {
      rawValue: 30,
      version: repeat.version,
    });
    expect(noReasonEdit.status).toBe(422);
    const corrected = await ok('POST', `/microbial-results/${repeat.id}`, {
      rawValue: 30,
      reason: 'Transcription error',
      version: repeat.version,
    });
    expect(corrected.run.verdict).toBe('Fail');
    const after = (await microbialOf(run)).results[1];
    expect([after.rawValue, after.judgement.percentOfLimit, after.judgement.judgement]).toEqual([
      30,
      120,
      'Fail',
    ]);
    const audit = await t.server.db.query<{ action: string; reason: string | null }>(
      `select action, reason from audit_log where domain = 'MicrobialResult' and entity_id = $1 order by seq`,
      [String(repeat.id)],
    );
    expect(audit).toEqual([
      { action: 'Create', reason: 'Plate overgrown' },
      { action: 'Update', reason: 'Transcription error' },
    ]);
  });

  it('keep the policy version pinned at run start; a later run takes the new version', async () => {
    const studyId = await kit.study();
    const early = await startedRun(studyId);
    const pinned = (await microbialOf(early)).pinnedVersionNumber;
    // Grade C contact plate limit 25 → 10.
    const current = await ok('GET', `/${POLICY}`);
    await changePolicyInForce(
      t.server,
      t.F,
      POLICY,
      {
        gradeLimits: { ...current.policy.gradeLimits, C: { contactPlate: 10, swab: 10 } },
        reason: 'Tighter grade C limits',
      },
      adminEditor(t.token),
    );
    await microbial(early, [plate(f.steel, 12)]);
    const kept = await microbialOf(early);
    expect(kept.pinnedVersionNumber).toBe(pinned);
    // 12 / 25 = 48 %: Pass under the pinned version.
    expect(kept.results[0].judgement).toMatchObject({ limit: 25, judgement: 'Pass' });
    expect(kept.results[0].judgement.derivation[0]).toBe(
      `Microbial limit policy version ${pinned}`,
    );
    const later = await startedRun(studyId);
    await microbial(later, [plate(f.steel, 12)]);
    const fresh = await microbialOf(later);
    expect(fresh.pinnedVersionNumber).toBe(pinned + 1);
    // 12 / 10 = 120 %: Fail under the new version.
    expect(fresh.results[0].judgement).toMatchObject({ limit: 10, judgement: 'Fail' });
    const runAudit = await t.server.db.query<{ new_values: Body }>(
      `select new_values from audit_log where domain = 'Run' and entity_id = $1 and action = 'Update'`,
      [String(later.id)],
    );
    expect(runAudit[0]!.new_values.microbialPolicyVersion).toBe(pinned + 1);
    // Put grade C back for the tests after this one.
    const restored = await ok('GET', `/${POLICY}`);
    await changePolicyInForce(
      t.server,
      t.F,
      POLICY,
      {
        gradeLimits: { ...restored.policy.gradeLimits, C: { contactPlate: 25, swab: 25 } },
        reason: 'Back to Annex 1',
      },
      adminEditor(t.token),
    );
  });

  it('are refused when the policy uses no microbial limits, endotoxin when it sets no endotoxin limit', async () => {
    const studyId = await kit.study();
    const run = await startedRun(studyId);
    const endotoxin = {
      ...plate(null, 0.1, { kind: 'endotoxin', key: 'en' }),
      microbialMethodId: endotoxinMethod,
    };
    const refused = await microbial(run, [endotoxin]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toEqual({
      property: 'en.kind',
      constraints: {
        invalid: `Endotoxin results are not taken: the run's microbial limit policy (version ${(await microbialOf(run)).pinnedVersionNumber}) sets no endotoxin limit`,
      },
    });
    await changePolicyInForce(
      t.server,
      t.F,
      POLICY,
      { useEndotoxinLimit: true, reason: 'WFI final rinse' },
      adminEditor(t.token),
    );
    // 0.1 / 0.25 = 40 %
    const withEndotoxin = await startedRun(studyId);
    expect((await microbial(withEndotoxin, [endotoxin])).status).toBe(200);
    expect((await microbialOf(withEndotoxin)).results[0].judgement).toMatchObject({
      limit: 0.25,
      unit: 'EU/ml',
      percentOfLimit: 40,
      judgement: 'Pass',
    });
    await changePolicyInForce(
      t.server,
      t.F,
      POLICY,
      { useMicrobialLimits: false, reason: 'Oral solids: no bioburden limits' },
      adminEditor(t.token),
    );
    const off = await startedRun(studyId);
    const none = await microbial(off, [plate(f.steel, 2, { key: 'p' })]);
    expect(none.status).toBe(422);
    expect(none.body.errors[0].constraints.invalid).toMatch(
      /^Microbial results are not taken: the run's microbial limit policy \(version \d+\) does not use microbial limits$/,
    );
    await changePolicyInForce(
      t.server,
      t.F,
      POLICY,
      { useMicrobialLimits: true, useEndotoxinLimit: false, reason: 'Restored' },
      adminEditor(t.token),
    );
  });

  it('planned by the protocol are needed to submit and count in the release flag', async () => {
    const studyId = await kit.study({
      allowReleaseAtRisk: false,
      microbialSampling: [
        { samplingLocationId: f.steel, kind: 'contactPlate', microbialMethodId: plateMethod },
        { samplingLocationId: null, kind: 'rinse', microbialMethodId: null },
      ],
    });
    let run = await startedRun(studyId);
    const side = await microbialOf(run);
    expect(side.plan).toEqual([
      {
        samplingLocationId: f.steel,
        samplingLocationName: 'Valve',
        kind: 'contactPlate',
        microbialMethodId: plateMethod,
        limit: 25,
        unit: 'CFU/plate',
        limitSource: 'Grade C contact plate',
      },
      {
        samplingLocationId: null,
        samplingLocationName: 'Final rinse',
        kind: 'rinse',
        microbialMethodId: null,
        limit: 100,
        unit: 'CFU/ml',
        limitSource: 'Final rinse',
      },
    ]);
    await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    run = await visualPass((await ok('GET', `/runs/${run.id}`)).run);
    expect(run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(run.releaseReasons).toEqual([
      'Microbial results pending for Valve (Contact plate), Final rinse (Rinse (bioburden))',
      'The protocol does not allow release at risk',
    ]);
    const early = await sign(run, 'Submit');
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      'No result for Valve (Contact plate), Final rinse (Rinse (bioburden)) and no deviation explains it',
    );
    const done = await microbial(run, [
      plate(f.steel, 2),
      plate(null, 5, { kind: 'rinse', microbialMethodId: null }),
    ]);
    expect(done.body.run.releaseFlag).toBe('CAN_BE_RELEASED');
    expect(done.body.run.verdict).toBe('Pass');
    expect((await sign(done.body.run, 'Submit')).status).toBe(200);
    // Submitted: no more microbial results or corrections.
    const locked = await microbial(done.body.run, [plate(f.steel, 2)]);
    expect(locked.status).toBe(409);
  });

  it("count under the residue type 'Microbial' in the statistics, apart from chemical results", async () => {
    const chemical = await ok('GET', '/verification/statistics?groupBy=residueType&key=Chemical');
    const micro = await ok('GET', '/verification/statistics?groupBy=residueType&key=Microbial');
    expect(micro.statistics.count).toBeGreaterThan(0);
    const microIds = new Set(
      (
        await t.server.db.query<{ id: number }>(
          'select id from microbial_results where facility_id = $1 and superseded_by is null',
          [t.facilityId],
        )
      ).map((r) => r.id),
    );
    expect(micro.statistics.count).toBe(microIds.size);
    const microPoints = statisticsFromWire(micro.statistics).points;
    expect(microPoints.some((p) => p.label.endsWith('· Final rinse'))).toBe(true);
    const chemicalCount = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from sample_results
        where facility_id = $1 and superseded_by is null and percent_of_limit is not null`,
      [t.facilityId],
    );
    expect(chemical.statistics.count).toBe(chemicalCount[0]!.n);
  });
});
