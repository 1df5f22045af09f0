import fc from 'fast-check';
import { statisticsFromWire } from '#core/verification/statistics-columns.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, policyApprover } from '#server/test/policy-in-force.ts';
import { CORRECTION_NOT_ENOUGH, NEEDS_INVESTIGATION, RETEST_BY_OTHER_ANALYST } from './oos-rule.ts';
import { adminSigner } from '#server/test/factories/admin.ts';
import { actorFor } from '#server/test/factories/signed-record.ts';
import { buildRun } from '#server/test/factories/verification.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Out-of-specification results (core/verification/README.md; FDA OOS guidance 2006/2022) over
 * HTTP: a failing result is set aside only by a laboratory investigation QA approved with an
 * assignable cause, the original stays listed, invalidated, out of the statistics and counted
 * apart; a confirmed OOS stands; retests follow the facility's rule. The PTFE gasket has no
 * recovery, so `times` × its limit is times × 100 % of limit. Each test takes its results on a
 * day of its own so the statistics of one do not see another's.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, row } = kit;
const scope = () => ({ planId: t.planId, facilityId: t.facilityId });
const results = (run: Body, rows: unknown[], as?: string) =>
  call('POST', `/runs/${run.id}/results`, { results: rows }, as);
let f: RunFacility;
interface Signer {
  token: string;
  password: string;
}
let analyst: Signer & { id: number };
let qa: Signer;
let admin: Signer;

beforeAll(async () => {
  f = await kit.build();
  const second = await kit.secondPerson();
  analyst = { id: second.id, token: second.token, password: second.password };
  qa = await policyApprover(t.server, t.F);
  admin = adminEditor(t.token);
});

const open = (resultId: number, body: Record<string, unknown> = {}, as?: string) =>
  call('POST', `/results/${resultId}/investigations`, body, as);
const write = async (investigation: Body, change: Record<string, unknown>) =>
  (
    await ok('POST', `/investigations/${investigation.id}`, {
      reason: 'Phase I findings',
      version: investigation.version,
      ...change,
    })
  ).investigation as Body;
const sign = (id: number, action: string, as: Signer, extra: Record<string, unknown> = {}) =>
  call(
    'POST',
    '/signatures',
    { documentType: 'Investigation', documentId: id, action, password: as.password, ...extra },
    as.token,
  );
/** Changes the facility's verification settings (the OOS rule among them). */
async function setRule(change: Record<string, unknown>) {
  const current = (await ok('GET', '/verification/settings')).settings as Body;
  const { version, updatedAt: _updatedAt, ...fields } = current;
  await ok('POST', '/verification/settings', {
    ...fields,
    ...change,
    reason: 'OOS rule',
    ...(version > 0 ? { version } : {}),
  });
}
const runNow = async (run: Body) => (await ok('GET', `/runs/${run.id}`)).run as Body;
const day = (n: number) => `2026-0${n}-15`;
const stats = async (n: number) =>
  statisticsFromWire(
    (
      await ok(
        'GET',
        `/verification/statistics?groupBy=location&key=${f.ptfe}&from=${day(n)}&to=${day(n)}`,
      )
    ).statistics,
  ) as unknown as Body;
const repeat = (run: Body, original: Body, kind: string, times: number, n: number) =>
  row(run, f.ptfe, times, {
    batchNumber: kind === 'retest' ? null : `RS-${Date.now()}-${Math.random()}`,
    takenAt: `${day(n)}T10:00:00Z`,
    repeats: { resultId: original.id, kind, reason: 'Analyst suspects a dilution error' },
  });

/**
 * A run with one result at the gasket of `times` × its limit, entered by the administrator
 * through the run's own services.
 */
async function failing(times: number, n: number): Promise<{ run: Body; result: Body }> {
  const author = actorFor(await adminSigner(t.server.db));
  const run = await buildRun(t.server, scope(), await kit.study(), {
    actor: author,
    event: { startedAt: '2026-11-01T08:00:00Z' },
    results: (built) => [row(built, f.ptfe, times, { takenAt: `${day(n)}T08:00:00Z` })],
  });
  return { run, result: (run.results as Body[])[0]! };
}

/** Opens, writes, submits (administrator) and approves (QA) an investigation of a result. */
async function concluded(result: Body, findings: Record<string, unknown>): Promise<Body> {
  const opened = await open(result.id);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const written = await write(opened.body.investigation, findings);
  const submitted = await sign(written.id, 'Submit', admin);
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const approved = await sign(written.id, 'Approve', qa, { meaning: undefined });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return (await ok('GET', `/investigations/${written.id}`)).investigation as Body;
}

const microbial = (run: Body, rows: unknown[], as?: string) =>
  call('POST', `/runs/${run.id}/microbial-results`, { results: rows }, as);
const microbialResults = async (run: Body) =>
  (await ok('GET', `/runs/${run.id}/microbial`)).microbial.results as Body[];
const openMicrobial = (id: number, body: Record<string, unknown> = {}) =>
  call('POST', `/microbial-results/${id}/investigations`, body);
const plate = (count: number, n: number, extra: Record<string, unknown> = {}) => ({
  key: `m${Math.random().toString(36).slice(2, 8)}`,
  samplingLocationId: f.steel,
  kind: 'contactPlate',
  censoring: '=',
  rawValue: count,
  readAt: `${day(n)}T09:00:00Z`,
  ...extra,
});
const replate = (original: Body, kind: string, count: number, n: number, key?: string) =>
  plate(count, n, {
    ...(key ? { key } : {}),
    repeats: { resultId: original.id, kind, reason: 'Plate overgrown' },
  });

/** A started run with one contact plate at the valve of `count` CFU, entered by the administrator. */
async function failingPlate(count: number, n: number): Promise<{ run: Body; result: Body }> {
  const run = await buildRun(t.server, scope(), await kit.study(), {
    actor: actorFor(await adminSigner(t.server.db)),
    event: { startedAt: '2026-11-01T08:00:00Z' },
  });
  const res = await microbial(run, [plate(count, n)]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { run: res.body.run as Body, result: (await microbialResults(run))[0]! };
}

/** Opens, writes, submits and approves (QA) an investigation of a microbial result. */
async function concludedMicrobial(result: Body, findings: Record<string, unknown>) {
  const opened = await openMicrobial(result.id);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const written = await write(opened.body.investigation, findings);
  expect((await sign(written.id, 'Submit', admin)).status).toBe(200);
  expect((await sign(written.id, 'Approve', qa)).status).toBe(200);
}

const ASSIGNABLE = {
  findings: 'Standard prepared at half strength; reinjection of the same solution agrees.',
  outcome: 'assignableCause',
  causeCategory: 'standard',
  causeDescription: 'Reference standard weighed at 5 mg instead of 10 mg (logbook p. 12)',
  conclusion: 'The original result is invalid; retest the same sample with a fresh standard.',
};
const CONFIRMED = {
  findings: 'Calculations, instrument, standard and sample preparation checked: no error.',
  outcome: 'confirmed',
  conclusion: 'The OOS is confirmed; phase II (process) investigation follows.',
};

describe('out-of-specification results', () => {
  it('refuse setting a failing result aside with a reason alone, and save nothing', async () => {
    const { run, result } = await failing(3, 1);
    expect(result.judgement).toMatchObject({ passed: false });
    expect(result.judgement.percentOfLimit).toBeCloseTo(300, 6);
    const cases: { kind: string; before: () => Promise<void>; message: string }[] = [
      { kind: 'retest', before: async () => {}, message: NEEDS_INVESTIGATION },
      { kind: 'reswab', before: async () => {}, message: NEEDS_INVESTIGATION },
      {
        kind: 'retest',
        before: async () => {
          expect((await open(result.id, { findings: 'Started' })).status).toBe(200);
        },
        message: 'is not approved by QA yet: the result stands until it is',
      },
    ];
    for (const c of cases) {
      await c.before();
      const res = await results(run, [repeat(run, result, c.kind, 0.1, 1)], analyst.token);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errName).toBe('SampleChangesError');
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].property).toMatch(/^k\d+\.repeats$/);
      expect(res.body.errors[0].constraints.invalid).toContain(c.message);
    }
    // Nor does a correction that turns the failure into a pass.
    const corrected = await call('POST', `/results/${result.id}`, {
      rawValue: result.rawValue / 30,
      reason: 'Transcription error',
      version: result.version,
    });
    expect(corrected.status).toBe(422);
    expect(corrected.body.errors).toEqual([
      { property: 'rawValue', constraints: { invalid: CORRECTION_NOT_ENOUGH } },
    ]);
    const now = await runNow(run);
    expect(now.results).toHaveLength(1);
    expect(now.results[0]).toMatchObject({ supersededBy: null, invalidatedBy: null });
    expect(now.results[0].rawValue).toBe(result.rawValue);
    expect(now).toMatchObject({ verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' });
    expect(now.investigations).toHaveLength(1);
    expect(now.investigations[0]).toMatchObject({ resultId: result.id, concluded: false });
  });

  it('open only on an out-of-specification result, once, with QualificationTask Modify', async () => {
    const { run, result } = await failing(3, 2);
    const reader = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    expect((await open(result.id, {}, readerToken)).status).toBe(403);
    const passing = await results(run, [row(run, f.steel, 0.1)]);
    const good = (passing.body.run.results as Body[]).find((r) => r.id !== result.id)!;
    const refusals: [number, string][] = [
      [good.id, 'Only an out-of-specification result is investigated'],
      [999999, ''],
    ];
    for (const [id, message] of refusals) {
      const res = await open(id);
      if (message === '') {
        expect(res.status).toBe(404);
        continue;
      }
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ errName: 'DataValidationError' });
      expect(res.body.errors[0].property).toBe('resultId');
      expect(res.body.errors[0].constraints.invalid).toContain(message);
    }
    const first = await open(result.id, { outcome: 'confirmed', causeCategory: 'analyst' });
    expect(first.status).toBe(422);
    expect(first.body.errors[0].property).toBe('causeCategory');
    const opened = await open(result.id);
    expect(opened.status).toBe(200);
    expect(opened.body.investigation).toMatchObject({
      number: expect.stringMatching(/^INV-\d{4}$/),
      phase: 'laboratory',
      outcome: null,
      concluded: false,
      reported: `${result.rawValue} mg/swab`,
      controlled: { status: 'BeingBuilt' },
    });
    const again = await open(result.id);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].constraints.invalid).toBe(
      `This result is investigated in ${opened.body.investigation.number}`,
    );
    // Submit needs an outcome and a conclusion (and, for an assignable cause, its description).
    const incomplete = await sign(opened.body.investigation.id, 'Submit', admin);
    expect(incomplete.status).toBe(422);
    expect((incomplete.body.errors as Body[]).map((e) => e.property).sort()).toEqual([
      'conclusion',
      'outcome',
    ]);
  });

  it('approved with an assignable cause: the retest counts, the original stays, invalidated and counted apart', async () => {
    const { run, result } = await failing(3, 3);
    const opened = await open(result.id);
    const investigation = await write(opened.body.investigation, ASSIGNABLE);
    expect((await sign(investigation.id, 'Submit', admin)).status).toBe(200);
    // The submitter cannot approve: QA signs, the policy's Approver.
    const self = await sign(investigation.id, 'Approve', admin);
    expect(self.status).toBe(403);
    expect(self.body.errName).toBe('NotAllowed');
    const approved = await sign(investigation.id, 'Approve', qa);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.signature).toMatchObject({
      documentType: 'Investigation',
      action: 'Approve',
      meaning: 'Approve investigation',
    });
    const concludedNow = (await ok('GET', `/investigations/${investigation.id}`)).investigation;
    expect(concludedNow).toMatchObject({ concluded: true, controlled: { status: 'Approved' } });
    let now = await runNow(run);
    expect(now.results[0].invalidatedBy).toEqual({
      investigationId: investigation.id,
      number: investigation.number,
    });
    // Until its retest the location has no valid result; the failure keeps the run unreleased.
    expect(now.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    const edit = await call('POST', `/investigations/${investigation.id}`, {
      conclusion: 'Changed after approval',
      reason: 'Late edit',
      version: concludedNow.version,
    });
    expect(edit.status).toBe(409);
    // The same analyst may not retest; another may.
    const same = await results(run, [repeat(run, result, 'retest', 0.1, 3)]);
    expect(same.status).toBe(422);
    expect(same.body.errors[0].constraints.invalid).toBe(RETEST_BY_OTHER_ANALYST);
    const retest = await results(run, [repeat(run, result, 'retest', 0.1, 3)], analyst.token);
    expect(retest.status, JSON.stringify(retest.body)).toBe(200);
    now = retest.body.run as Body;
    expect(now.results).toHaveLength(2);
    const [original, second] = now.results as Body[];
    expect(original).toMatchObject({
      id: result.id,
      supersededBy: second!.id,
      invalidatedBy: { investigationId: investigation.id },
    });
    expect(second).toMatchObject({ repeats: { resultId: result.id, kind: 'retest' } });
    expect(second!.judgement.passed).toBe(true);
    expect(now.releaseReasons.join(' ')).not.toMatch(/failed at Gasket/);
    // Statistics: the 10 % retest is the one point; the 300 % original is counted apart.
    const s = await stats(3);
    expect(s.count).toBe(1);
    expect(s.points.map((p: Body) => p.percentOfLimit)).toEqual([expect.closeTo(10, 6)]);
    expect(s.invalidatedCount).toBe(1);
    expect(s.invalidated[0]).toMatchObject({
      resultId: result.id,
      investigationId: investigation.id,
    });
    expect(s.invalidated[0].percentOfLimit).toBeCloseTo(300, 6);
    const audit = await t.server.db.query<{ domain: string; action: string; entity_id: number }>(
      `select domain, action, entity_id from audit_log
        where (domain = 'Investigation' and entity_id = $1)
           or (domain = 'SampleResult' and action = 'Invalidate' and entity_id = $2)
        order by id`,
      [investigation.id, result.id],
    );
    expect(audit.map((a) => `${a.domain} ${a.action}`)).toEqual([
      'Investigation Create',
      'Investigation Update',
      'Investigation Conclude',
      'SampleResult Invalidate',
    ]);
  });

  it('confirmed: the failure stands, counted, and no retest sets it aside', async () => {
    const { run, result } = await failing(3, 4);
    const investigation = await concluded(result, CONFIRMED);
    expect(investigation).toMatchObject({ outcome: 'confirmed', concluded: true });
    for (const kind of ['retest', 'reswab']) {
      const res = await results(run, [repeat(run, result, kind, 0.1, 4)], analyst.token);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].constraints.invalid).toBe(
        `Investigation ${investigation.number} confirmed the result (no assignable laboratory cause): it stands and is not set aside`,
      );
    }
    const now = await runNow(run);
    expect(now.results).toHaveLength(1);
    expect(now.results[0]).toMatchObject({ supersededBy: null, invalidatedBy: null });
    expect(now).toMatchObject({ verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' });
    const s = await stats(4);
    expect(s.count).toBe(1);
    expect(s.points[0].percentOfLimit).toBeCloseTo(300, 6);
    expect(s.invalidatedCount).toBe(0);
  });

  it('retests follow the facility rule: how many, and by whom', async () => {
    const { run, result } = await failing(3, 5);
    await concluded(result, ASSIGNABLE);
    // The first retest fails too: it needs its own investigation, then a second retest.
    const first = await results(run, [repeat(run, result, 'retest', 2, 5)], analyst.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const retest = (first.body.run.results as Body[])[1]!;
    await concluded(retest, ASSIGNABLE);
    const cases: {
      settings: Record<string, unknown>;
      as: string;
      status: number;
      message?: string;
    }[] = [
      {
        settings: {},
        as: analyst.token,
        status: 422,
        message:
          'The facility allows 1 retest of a result (verification settings): this would be retest 2',
      },
      // The analyst entered the first retest: a second one is another analyst's.
      {
        settings: { maxRetests: 2 },
        as: analyst.token,
        status: 422,
        message: RETEST_BY_OTHER_ANALYST,
      },
      { settings: { retestByOtherAnalyst: false }, as: analyst.token, status: 200 },
    ];
    for (const c of cases) {
      if (Object.keys(c.settings).length > 0) await setRule(c.settings);
      const res = await results(run, [repeat(run, retest, 'retest', 0.1, 5)], c.as);
      expect(res.status, JSON.stringify(res.body)).toBe(c.status);
      if (c.message) expect(res.body.errors[0].constraints.invalid).toBe(c.message);
    }
    const s = await stats(5);
    expect(s.count).toBe(1);
    expect(s.invalidatedCount).toBe(2);
    await setRule({ maxRetests: 1, retestByOtherAnalyst: true });
  });

  it('no sequence of entries, repeats and investigations sets aside an un-investigated failure', async () => {
    const times = fc.constantFrom(0.1, 0.5, 1.5, 3);
    const action = fc.oneof(
      fc.record({ type: fc.constant('enter' as const), gasket: fc.boolean(), times }),
      fc.record({
        type: fc.constant('repeat' as const),
        pick: fc.nat(),
        kind: fc.constantFrom('retest', 'reswab'),
        byAnalyst: fc.boolean(),
        times,
      }),
      fc.record({
        type: fc.constant('investigate' as const),
        pick: fc.nat(),
        outcome: fc.constantFrom('assignableCause', 'confirmed'),
        approve: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 10 }), async (actions) => {
        let run: Body = await buildRun(t.server, scope(), await kit.study(), {
          actor: actorFor(await adminSigner(t.server.db)),
          event: { startedAt: '2026-11-01T08:00:00Z' },
          inspection: {},
        });
        for (const a of actions) {
          const all = run.results as Body[];
          const picked = all.length > 0 && a.type !== 'enter' ? all[a.pick % all.length]! : null;
          if (a.type === 'enter') {
            const at = a.gasket ? f.ptfe : f.steel;
            if (!all.some((r) => r.samplingLocationId === at))
              await results(run, [row(run, at, a.times, { takenAt: `${day(7)}T08:00:00Z` })]);
          } else if (picked && a.type === 'repeat') {
            await results(
              run,
              [
                row(run, picked.samplingLocationId, a.times, {
                  batchNumber: a.kind === 'retest' ? null : `P-${Date.now()}-${Math.random()}`,
                  takenAt: `${day(7)}T09:00:00Z`,
                  repeats: { resultId: picked.id, kind: a.kind, reason: 'Repeat' },
                }),
              ],
              a.byAnalyst ? analyst.token : undefined,
            );
          } else if (picked && a.type === 'investigate') {
            const opened = await open(picked.id);
            if (opened.status === 200) {
              const written = await write(
                opened.body.investigation,
                a.outcome === 'confirmed' ? CONFIRMED : ASSIGNABLE,
              );
              await sign(written.id, 'Submit', admin);
              if (a.approve) await sign(written.id, 'Approve', qa);
            }
          }
          run = await runNow(run);
          const concludedCauses = new Set(
            (run.investigations as Body[])
              .filter((i) => i.concluded && i.outcome === 'assignableCause')
              .map((i) => i.resultId),
          );
          for (const r of run.results as Body[]) {
            // A failure is set aside only once QA approved an assignable laboratory cause.
            if (r.supersededBy !== null && r.judgement.passed === false) {
              expect(r.invalidatedBy).not.toBeNull();
              expect(concludedCauses.has(r.id)).toBe(true);
            }
            if (run.releaseFlag !== 'CAN_NOT_BE_RELEASED' && r.supersededBy === null)
              expect(r.judgement.passed).not.toBe(false);
          }
        }
      }),
      { numRuns: 3, seed: 26, endOnFailure: true },
    );
  });

  it('refuse Submit while an investigation of a result is not concluded (opened, or in signing)', async () => {
    const cases: { stage: 'opened' | 'in signing' | 'approved and retested'; status: number }[] = [
      { stage: 'opened', status: 409 },
      { stage: 'in signing', status: 409 },
      { stage: 'approved and retested', status: 200 },
    ];
    for (const c of cases) {
      const { run, result } = await failing(3, 8);
      await kit.visualPass(run);
      const steel = await results(run, [
        row(run, f.steel, 0.1, { takenAt: `${day(8)}T08:00:00Z` }),
      ]);
      expect(steel.status, JSON.stringify(steel.body)).toBe(200);
      const investigation = (await open(result.id)).body.investigation as Body;
      if (c.stage !== 'opened') {
        const written = await write(investigation, ASSIGNABLE);
        expect((await sign(written.id, 'Submit', admin)).status).toBe(200);
      }
      if (c.stage === 'approved and retested') {
        expect((await sign(investigation.id, 'Approve', qa)).status).toBe(200);
        const retest = await results(run, [repeat(run, result, 'retest', 0.1, 8)], analyst.token);
        expect(retest.status, JSON.stringify(retest.body)).toBe(200);
      }
      const submitted = await kit.sign(await runNow(run), 'Submit');
      expect(submitted.status, `${c.stage}: ${JSON.stringify(submitted.body)}`).toBe(c.status);
      if (c.status === 409)
        expect(submitted.body).toMatchObject({
          errName: 'TransactionLocked',
          message: `Investigation ${investigation.number} of the result at Gasket is not concluded: QA approves it before the run is submitted`,
        });
    }
  });

  it('microbial results follow the same rule: refusals, the retest rule, invalidation, statistics', async () => {
    // Ungraded contact plate: limit 100 CFU/plate, alert at 50 % (the policy's defaults).
    const { run, result } = await failingPlate(150, 9);
    expect(result.judgement).toMatchObject({ judgement: 'Fail', percentOfLimit: 150 });
    const refusals: { kind: string; before: () => Promise<void>; message: string }[] = [
      { kind: 'retest', before: async () => {}, message: NEEDS_INVESTIGATION },
      { kind: 'reswab', before: async () => {}, message: NEEDS_INVESTIGATION },
      {
        kind: 'reswab',
        before: async () => {
          expect((await openMicrobial(result.id)).status).toBe(200);
        },
        message: 'is not approved by QA yet: the result stands until it is',
      },
    ];
    for (const c of refusals) {
      await c.before();
      const res = await microbial(run, [replate(result, c.kind, 10, 9, 'again')], analyst.token);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errName).toBe('SampleChangesError');
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].property).toBe('again.repeats');
      expect(res.body.errors[0].constraints.invalid).toContain(c.message);
    }
    // A correction of the failure into a pass is refused as for a sample result.
    const corrected = await call('POST', `/microbial-results/${result.id}`, {
      rawValue: 15,
      reason: 'Transcription error',
      version: result.version,
    });
    expect(corrected.status).toBe(422);
    expect(corrected.body.errors).toEqual([
      { property: 'rawValue', constraints: { invalid: CORRECTION_NOT_ENOUGH } },
    ]);
    // Submit waits for the investigation, named by the result's label.
    const investigation = (await runNow(run)).investigations[0] as Body;
    expect(investigation).toMatchObject({
      resultId: null,
      microbialResultId: result.id,
      samplingLocationName: 'Valve (Contact plate)',
      reported: '150 CFU/plate',
      percentOfLimit: 150,
    });
    const submit = await kit.sign(await runNow(run), 'Submit');
    expect(submit.status).toBe(409);
    expect(submit.body.message).toContain(
      `Investigation ${investigation.number} of the result at Valve (Contact plate) is not concluded: QA approves it before the run is submitted`,
    );
    const written = await write(investigation, ASSIGNABLE);
    expect((await sign(written.id, 'Submit', admin)).status).toBe(200);
    expect((await sign(written.id, 'Approve', qa)).status).toBe(200);
    let side = await microbialResults(run);
    expect(side[0]!.invalidatedBy).toEqual({
      investigationId: investigation.id,
      number: investigation.number,
    });
    // Until its retest the failure still counts: never a release without a valid result.
    expect((await runNow(run)).releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    const same = await microbial(run, [replate(result, 'retest', 10, 9, 'same')]);
    expect(same.body.errors[0]).toMatchObject({
      property: 'same.repeats',
      constraints: { invalid: RETEST_BY_OTHER_ANALYST },
    });
    // The retest fails again: investigated in turn, then one retest too many.
    const retest = await microbial(run, [replate(result, 'retest', 120, 9)], analyst.token);
    expect(retest.status, JSON.stringify(retest.body)).toBe(200);
    side = await microbialResults(run);
    expect(side.map((r) => [r.supersededBy, r.repeats?.resultId ?? null])).toEqual([
      [side[1]!.id, null],
      [null, result.id],
    ]);
    await concludedMicrobial(side[1]!, ASSIGNABLE);
    const tooMany = await microbial(
      run,
      [replate(side[1]!, 'retest', 10, 9, 'third')],
      analyst.token,
    );
    expect(tooMany.body.errors[0]).toMatchObject({
      property: 'third.repeats',
      constraints: {
        invalid:
          'The facility allows 1 retest of a result (verification settings): this would be retest 2',
      },
    });
    const reswab = await microbial(run, [replate(side[1]!, 'reswab', 10, 9)]);
    expect(reswab.status, JSON.stringify(reswab.body)).toBe(200);
    // Statistics of the valve that day: the 10 % re-swab is the one point; 150 % and 120 % apart.
    const s = statisticsFromWire(
      (
        await ok(
          'GET',
          `/verification/statistics?groupBy=location&key=${f.steel}&from=${day(9)}&to=${day(9)}`,
        )
      ).statistics,
    ) as unknown as Body;
    expect(s.points.map((p: Body) => p.percentOfLimit)).toEqual([expect.closeTo(10, 6)]);
    expect(s.invalidatedCount).toBe(2);
    expect(s.invalidated.map((p: Body) => p.percentOfLimit).sort()).toEqual([120, 150]);
    const audit = await t.server.db.query<{ entity_id: string }>(
      `select entity_id from audit_log where domain = 'MicrobialResult' and action = 'Invalidate'
        order by seq`,
    );
    expect(audit.map((a) => Number(a.entity_id))).toEqual([result.id, side[1]!.id]);
  });

  it('a microbial Alert is the action level of the rule: investigated only where the facility says so', async () => {
    const cases: { investigate: boolean; repeat: number; open: number; message?: string }[] = [
      { investigate: false, repeat: 200, open: 422 },
      {
        investigate: true,
        repeat: 422,
        open: 200,
        message:
          'A microbial result at or above the alert level (50 % of its limit) is set aside only by a laboratory investigation approved by QA (verification settings): a reason alone is not enough',
      },
    ];
    // The rule is off by default; the second case turns it on.
    for (const c of cases) {
      if (c.investigate) await setRule({ investigateAboveAction: true });
      const { run, result } = await failingPlate(60, 6);
      expect(result.judgement.judgement).toBe('Alert');
      const res = await microbial(run, [replate(result, 'reswab', 10, 6, 'r')]);
      expect(res.status, JSON.stringify(res.body)).toBe(c.repeat);
      if (c.message) expect(res.body.errors[0].constraints.invalid).toBe(c.message);
      // Once repeated, a result is no longer investigated; else only an OOS one is.
      const opened = await openMicrobial(result.id);
      expect(opened.status, JSON.stringify(opened.body)).toBe(c.open);
    }
    await setRule({ investigateAboveAction: false });
  });

  it('a result above the action level needs an investigation only where the facility says so', async () => {
    const { run, result } = await failing(0.9, 6);
    expect(result.judgement.passed).toBe(true);
    const settings = (await ok('GET', '/verification/settings')).settings as Body;
    expect(settings).toMatchObject({
      actionPercent: 80,
      investigateAboveAction: false,
    });
    await setRule({ investigateAboveAction: true });
    const refused = await results(run, [repeat(run, result, 'reswab', 0.1, 6)]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].constraints.invalid).toBe(
      'A result at or above the action level (80 %) is set aside only by a laboratory investigation approved by QA (verification settings): a reason alone is not enough',
    );
    const opened = await open(result.id);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  });
});
