import { beforeAll, describe, expect, it } from 'vitest';
import { statisticsFromWire } from '#core/verification/statistics-columns.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { formatDate } from '#core/datetime/format-date-time.ts';
import { facilityDateTimeSettings } from '../../audit/audit-log.service.ts';

/*
 * GET {F}/verification/statistics over results entered over HTTP (the PTFE gasket has no
 * recovery, so a result of `times` × its limit is times × 100 % of limit), the historical results
 * of studies marked to count, and the facility's settings.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { newRun, row, results } = kit;
let f: RunFacility;
let lineId: number;
beforeAll(async () => {
  f = await kit.build();
  const lines = await t.call('GET', `${t.F}/productions?search=Line&pageLimit=100`);
  lineId = (lines.body.data as Body[])[0]!.id as number;
});

/**
 * The answer, its points decoded from columns and its alerts worded as the client does, in the
 * facility's date format.
 */
const stats = async (query: string, as?: string) => {
  const res = await t.call('GET', `${t.F}/verification/statistics?${query}`, undefined, as);
  const dateTime = await facilityDateTimeSettings(t.server.db, t.facilityId);
  if (res.status === 200)
    res.body.statistics = statisticsFromWire(res.body.statistics as never, (takenAt) =>
      formatDate(takenAt, dateTime),
    );
  return res;
};

describe('verification statistics', () => {
  it('draw the counted results of a location, oldest first, with hand-checked figures', async () => {
    const run = await newRun(await kit.study());
    const first = await results(run, [row(run, f.ptfe, 0.1), row(run, f.ptfe, 0.5)]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const high = (first.body.run.results as Body[])[1]!;
    // A reswab replaces the 50 % result: it no longer counts.
    const reswab = await results(run, [
      row(run, f.ptfe, 0.3, { repeats: { resultId: high.id, kind: 'reswab', reason: 'New swab' } }),
    ]);
    expect(reswab.status, JSON.stringify(reswab.body)).toBe(200);
    const later = await newRun(await kit.study());
    expect((await results(later, [row(later, f.ptfe, 0.2)])).status).toBe(200);

    const res = await stats(`groupBy=location&key=${f.ptfe}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.statistics as Body;
    expect(s).toMatchObject({ groupBy: 'location', key: String(f.ptfe), label: 'Gasket' });
    expect(s.count).toBe(3);
    expect((s.points as Body[]).map((p) => p.percentOfLimit)).toEqual([
      expect.closeTo(10, 6),
      expect.closeTo(30, 6),
      expect.closeTo(20, 6),
    ]);
    expect((s.points as Body[]).every((p) => p.historical === false)).toBe(true);
    // Mean 20; moving ranges 20 and 10, MR̄ 15, UCL 20 + 2.66 × 15 = 59.9; s = 10,
    // Ppu = (100 − 20) / 30 = 2.667; lower bound 2.667 × (1 − 1.645 × √(1/64 + 1/4)) = 0.4506.
    expect(s.mean).toBeCloseTo(20, 6);
    expect(s.mrBar).toBeCloseTo(15, 6);
    expect(s.ucl).toBeCloseTo(59.9, 6);
    expect(s.ppu).toBeCloseTo(2.6667, 3);
    expect(s.ppuLower95).toBeCloseTo(0.4506, 3);
    expect(s.ppuTarget).toBe(2);
    expect((s.alerts as Body[]).map((a) => a.kind)).toContain('ppuBelowTarget');
    // The same results under their equipment and the production of its train.
    const e1 = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.ptfe],
    );
    const byEquipment = await stats(`groupBy=equipment&key=${e1[0]!.equipment_id}`);
    expect(byEquipment.body.statistics.count).toBe(3);
    const byLine = await stats(`groupBy=production&key=${lineId}`);
    expect(byLine.body.statistics.count).toBe(3);
    // A day range before the results leaves none.
    const none = await stats(`groupBy=location&key=${f.ptfe}&to=2020-01-01`);
    expect(none.body.statistics).toMatchObject({ count: 0, mean: null, ppu: null });
  });

  it('draw censored results at their bound and give no index when all are censored', async () => {
    const run = await newRun(await kit.study());
    const res = await results(run, [
      row(run, f.steel, 0.2, { censoring: '< LOQ' }),
      row(run, f.steel, 0.4, { censoring: '< LOQ' }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = (await stats(`groupBy=location&key=${f.steel}`)).body.statistics as Body;
    expect(s.count).toBe(2);
    expect(s.censoredCount).toBe(2);
    // Steel is recovered 80 %: 0.2 × 100 / 0.8 = 25 %, 0.4 → 50 %.
    expect((s.points as Body[]).map((p) => [p.percentOfLimit, p.censoredBelow])).toEqual([
      [expect.closeTo(25, 6), true],
      [expect.closeTo(50, 6), true],
    ]);
    expect(s.ppu).toBeNull();
    expect(s.statement).toMatch(/^All 2 results below LOQ, at most 50(\.0+)? % of limit$/);
  });

  it('count historical results only when their study is marked', async () => {
    const create = recordCreator(t.server, t.token, t.F);
    const studyId = await create('historical-study', {
      productId: f.productIds[0],
      productionId: lineId,
      studyType: 'Validation',
      completedDate: '2025-06-01',
      outcome: 'Validated',
      name: 'CVR-2025-001',
    });
    for (const [takenAt, percentOfLimit] of [
      ['2025-05-01', 12],
      ['2025-05-02', 18],
    ] as const) {
      await create('historical-study-results', {
        historicalStudyId: studyId,
        residueType: 'Detergent',
        takenAt,
        percentOfLimit,
        name: `S-${takenAt}`,
      });
    }
    const before = await stats('groupBy=residueType&key=Detergent');
    expect(before.status).toBe(200);
    expect(before.body.statistics.count).toBe(0);
    const study = (await t.call('GET', `${t.F}/historical-study/${studyId}`)).body as Body;
    const marked = await t.call('POST', `${t.F}/historical-study/${studyId}`, {
      countInStatistics: true,
      reason: 'Counts in the ongoing verification',
      version: (study.result ?? study).version,
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const after = (await stats('groupBy=residueType&key=Detergent')).body.statistics as Body;
    expect(after.count).toBe(2);
    expect(after.points).toMatchObject([
      { historical: true, resultId: null, takenAt: '2025-05-01T00:00:00.000Z', percentOfLimit: 12 },
      { historical: true, resultId: null, label: 'CVR-2025-001', percentOfLimit: 18 },
    ]);
    expect(after.mean).toBeCloseTo(15, 6);
    // Sample results count under Chemical only.
    const chemical = (await stats('groupBy=residueType&key=Chemical')).body.statistics as Body;
    expect((chemical.points as Body[]).some((p) => p.historical)).toBe(false);
  });

  it('refuse an unknown key with 404 and a user without QualificationTask Get with 403', async () => {
    expect((await stats('groupBy=equipment&key=999999')).status).toBe(404);
    expect((await stats('groupBy=location&key=abc')).status).toBe(404);
    expect((await stats('groupBy=residueType&key=Dust')).status).toBe(404);
    expect((await stats('groupBy=weather&key=1')).status).toBe(422);
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ RiskCalculation: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await stats(`groupBy=location&key=${f.ptfe}`, as)).status).toBe(403);
    expect((await t.call('GET', `${t.F}/verification/settings`, undefined, as)).status).toBe(403);
  });
});

describe('verification settings', () => {
  it('default, are set with a reason and version, audited, and judge the points', async () => {
    const read = await t.call('GET', `${t.F}/verification/settings`);
    expect(read.body.settings).toMatchObject({
      ppuTarget: 2,
      alertPercent: 50,
      actionPercent: 80,
      ewmaLambda: 0.2,
      version: 0,
    });
    const body = { ppuTarget: 0.4, alertPercent: 25, actionPercent: 80, ewmaLambda: 0.2 };
    const crossed = await t.call('POST', `${t.F}/verification/settings`, {
      ...body,
      alertPercent: 90,
      reason: 'Tighter',
    });
    expect(crossed.status).toBe(422);
    const set = await t.call('POST', `${t.F}/verification/settings`, {
      ...body,
      reason: 'Tighter',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.settings).toMatchObject({ ...body, version: 1 });
    const stale = await t.call('POST', `${t.F}/verification/settings`, {
      ...body,
      reason: 'Again',
      version: 5,
    });
    expect(stale.status).toBe(409);
    const audit = await t.server.db.query<{ action: string; reason: string }>(
      `select action, reason from audit_log where domain = 'VerificationSettings' and facility_id = $1`,
      [t.facilityId],
    );
    expect(audit).toEqual([{ action: 'Create', reason: 'Tighter' }]);
    // The 30 % result is now above the alert percent; the Ppu bound 0.45 meets the target 0.4.
    const s = (await stats(`groupBy=location&key=${f.ptfe}`)).body.statistics as Body;
    expect(s.ppuTarget).toBe(0.4);
    expect((s.points as Body[])[1]!.alerts).toEqual(['aboveAlert']);
    expect((s.alerts as Body[]).map((a) => a.kind)).not.toContain('ppuBelowTarget');
    // Issue 30: the message names the result's day as the facility writes dates, never ISO.
    const alert = (s.alerts as Body[]).find((a) => a.kind === 'aboveAlert')!;
    const day = formatDate(
      alert.takenAt as string,
      await facilityDateTimeSettings(t.server.db, t.facilityId),
    );
    expect(alert.message).toContain(` on ${day} `);
    expect(alert.message).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const refused = await t.call(
      'POST',
      `${t.F}/verification/settings`,
      { ...body, reason: 'No', version: 1 },
      as,
    );
    expect(refused.status).toBe(403);
  });
});

// Last: its results on the gasket, in January 2025, would join the location's points above.
describe('verification statistics with censoring', () => {
  it('take a result above its upper limit as right-censored, Ppu from the censored-data fit', async () => {
    const run = await newRun(await kit.study());
    const day = (d: number) => ({ takenAt: `2025-01-0${d}T10:00:00.000Z` });
    const res = await results(run, [
      row(run, f.ptfe, 0.1, day(1)),
      row(run, f.ptfe, 0.2, day(2)),
      row(run, f.ptfe, 0.3, day(3)),
      row(run, f.ptfe, 0.4, { ...day(4), censoring: '> upper limit' }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = (await stats(`groupBy=location&key=${f.ptfe}&from=2025-01-01&to=2025-01-31`)).body
      .statistics as Body;
    expect(s).toMatchObject({ count: 4, censoredCount: 0, censoredAboveCount: 1 });
    expect((s.points as Body[]).map((p) => p.censoredAbove)).toEqual([false, false, false, true]);
    // 10, 20, 30 and > 40 % of limit: R survreg's lognormal fit (core/verification/golden,
    // 'one above the upper limit'), μ 3.192706, σ 0.660939 on ln % of limit.
    expect(s.ppuMethod).toBe('Censored-data maximum likelihood (lognormal), 1 of 4 censored');
    expect(s.ppu).toBeCloseTo(0.712352, 5);
    expect(s.ppuLower95).toBeCloseTo(0.148427, 5);
    // Counted exact at 40 %, as before: Ppu 75 / (3 × 12.909944) = 1.936492.
    expect(s.ppuSubstitution).toBeCloseTo(1.936492, 5);
    expect(s.censoredFit).toMatchObject({ distribution: 'lognormal' });
  });
});
