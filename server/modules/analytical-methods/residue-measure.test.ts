import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { storeLimitsSnapshot } from '#server/modules/policies/policy-approval.ts';

/*
 * What a method measures (issue 32): set on its own route under the ResidueMeasure permission,
 * audited; a total organic carbon result converted to the active by the lowest carbon fraction
 * of the study's actives before it meets the limit, and not judged while a fraction is missing.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const path = () => `/analytical-method/${f.method}/residue-measure`;

async function setMeasure(residueMeasure: string, as?: string) {
  const current = await ok('GET', path());
  return call(
    'PUT',
    path(),
    { residueMeasure, version: current.version, reason: 'Method validated as TOC' },
    as,
  );
}

/** Sets an active's carbon fraction through the active's own edit. */
async function carbonFraction(name: string, value: number | null) {
  const [active] = await t.server.db.query<{ id: number }>(
    'select id from actives where facility_id = $1 and name = $2',
    [t.facilityId, name],
  );
  const current = await ok('GET', `/apis/${active!.id}`);
  const version = (current.result ?? current).version as number;
  await ok('POST', `/apis/${active!.id}`, {
    reason: 'Carbon fraction from the molecular formula',
    version,
    carbonFraction: value,
  });
}

/**
 * A limits snapshot of the facility as it is now, as an approval takes one: it pins the actives'
 * carbon fractions.
 */
let pinned: number;
const snapshotNow = () =>
  t.server.db.transaction((tx) =>
    storeLimitsSnapshot(tx, {
      ref: {
        planId: t.planId,
        facilityId: t.facilityId,
        documentType: 'CleaningInspectionSettings',
        documentId: 1,
      },
      versionNumber: 2,
      content: {},
    }),
  );

const judgementOf = (body: Body, location: number) =>
  (body.run.results as Body[]).find((r) => r.samplingLocationId === location)!.judgement as Body;

describe('the residue measure of a method', () => {
  it('is refused without the ResidueMeasure permission, even with the method’s own rights', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ AnalyticalMethod: ['Get', 'Modify'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await call('GET', path(), undefined, as)).status).toBe(403);
    const refused = await setMeasure('toc', as);
    expect(refused.status).toBe(403);
    expect((await ok('GET', path())).residueMeasure).toBe('active');
  });

  it('is the active by default, changes with a reason and an audit row, refuses bad input', async () => {
    expect(await ok('GET', path())).toMatchObject({
      residueMeasure: 'active',
      label: 'The active itself',
    });
    const bad = await setMeasure('ph');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/total organic carbon or conductivity/);
    const noReason = await call('PUT', path(), { residueMeasure: 'toc', version: 1 });
    expect(noReason.status).toBe(422);
    expect((await ok('GET', path())).residueMeasure).toBe('active');

    const set = await setMeasure('toc');
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ residueMeasure: 'toc', label: 'Total organic carbon' });
    expect(set.body.conversion).toMatch(/divided by the carbon fraction of the active/);
    const audit = await t.server.db.query<{ reason: string; old_values: Body; new_values: Body }>(
      `select reason, old_values, new_values from audit_log
        where domain = 'AnalyticalMethod' and action = 'ResidueMeasure' and entity_id = $1`,
      [f.method],
    );
    expect(audit).toEqual([
      {
        reason: 'Method validated as TOC',
        old_values: { residueMeasure: 'active' },
        new_values: { residueMeasure: 'toc' },
      },
    ]);
    expect((await setMeasure('toc')).status).toBe(400);
  });

  it('takes Add to give one from the active, Delete to take it back, Modify for another', async () => {
    const only = async (action: string) => {
      const user = await buildUser(t.server.db, {
        permissions: permissionsWith({ ResidueMeasure: [action] }),
      });
      return t.server.login(user.username, user.password);
    };
    const [adder, deleter, modifier] = await Promise.all(['Add', 'Delete', 'Modify'].map(only));
    const measure = async () => (await ok('GET', path())).residueMeasure;
    expect(await measure()).toBe('toc');
    expect((await setMeasure('active', modifier)).status).toBe(403);
    expect((await setMeasure('conductivity', adder)).status).toBe(403);
    const modified = await setMeasure('conductivity', modifier);
    expect(modified.status, JSON.stringify(modified.body)).toBe(200);
    expect((await setMeasure('active', adder)).status).toBe(403);
    expect(await measure()).toBe('conductivity');
    expect((await setMeasure('active', deleter)).status).toBe(200);
    expect((await setMeasure('toc', modifier)).status).toBe(403);
    expect((await setMeasure('toc', deleter)).status).toBe(403);
    expect(await measure()).toBe('active');
    expect((await setMeasure('toc', adder)).status).toBe(200);
    expect(await measure()).toBe('toc');
    const refusals = await t.server.db.query<{ attempted: string }>(
      `select new_values->>'attempted' as attempted from audit_log
        where action = 'AccessRefused' and domain = 'ResidueMeasure' order by seq`,
    );
    expect(refusals.map((r) => r.attempted)).toEqual(
      expect.arrayContaining(['Delete', 'Add', 'Modify']),
    );
  });
});

describe('a total organic carbon result', () => {
  it('refuses a protocol while an active of its products states no carbon fraction', async () => {
    // The protocol's fitness check: the LOQ in residue terms cannot be known.
    await expect(kit.study()).rejects.toThrow(/HPLC-1 cannot show the limit: .*carbon fraction/);
  });

  it('is judged with the fraction its snapshot pinned, not the active as edited since', async () => {
    await carbonFraction('Alpha', 0.6);
    await carbonFraction('Beta', 0.5);
    pinned = await snapshotNow();
    const run = await newRun(await kit.study({ limitsSnapshotId: pinned }));
    const before = await results(run, [row(run, f.steel, 0.2)]);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    const judged = judgementOf(before.body, f.steel);
    // An edit after approval: a lower fraction would convert the same carbon to more active.
    await carbonFraction('Beta', 0.25);
    const again = await ok('GET', `/runs/${run.id}`);
    const plan = (again.run.plan as Body[]).find((p) => p.samplingLocationId === f.steel)!;
    expect(plan.methodCannotShowLimit).toBeNull();
    expect(judgementOf(again, f.steel)).toEqual(judged);
    // A result entered now in the same run is still converted by the pinned 0.5.
    const later = await results(run, [row(run, f.ptfe, 0.2)]);
    expect(judgementOf(later.body, f.ptfe).derivation).toContainEqual(
      expect.stringMatching(/÷ carbon fraction 0\.5 = /),
    );
    // Nor does a fraction stated since reach a snapshot taken when none was: as of its day,
    // the carbon cannot be converted, and a protocol on it is still refused.
    await expect(kit.study()).rejects.toThrow(/HPLC-1 cannot show the limit: .*carbon fraction/);
  });

  it('is converted to the active by the lowest carbon fraction before the limit', async () => {
    const run = await newRun(await kit.study({ limitsSnapshotId: pinned }));
    const plan = (run.plan as Body[]).find((p) => p.samplingLocationId === f.steel)!;
    const limit = plan.limit as number;
    // LOQ 0.001 µg/swab of carbon ÷ 0.5 ÷ 80 % = 0.0025 µg/swab: far below the limit.
    expect(plan.methodCannotShowLimit).toBeNull();
    // 0.2 × L of carbon ÷ 0.5 (Beta, the lower) = 0.4 × L of active; ÷ 80 % = 0.5 × L: 50 %.
    const saved = await results(run, [row(run, f.steel, 0.2)]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const j = judgementOf(saved.body, f.steel);
    expect(j.correctedValue).toBeCloseTo(0.5 * limit, 12);
    expect(j.percentOfLimit).toBeCloseTo(50, 6);
    expect(j.passed).toBe(true);
    expect(j.derivation).toContain('Measured as: Total organic carbon');
    expect(j.derivation).toContainEqual(
      expect.stringMatching(/^As active: .* mg\/swab of carbon ÷ carbon fraction 0\.5 = /),
    );
    // PTFE, no recovery applied: 0.6 × L of carbon ÷ 0.5 = 1.2 × L of active: 120 %, failed,
    // where the carbon alone (0.6 × L, 60 %) would have passed.
    const over = await results(run, [row(run, f.ptfe, 0.6)]);
    const failed = judgementOf(over.body, f.ptfe);
    expect(failed.percentOfLimit).toBeCloseTo(120, 6);
    expect(failed.passed).toBe(false);
  });
});
