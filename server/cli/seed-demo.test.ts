import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import { facilityLimitsInput } from '#server/modules/limits/facility-limits-input.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { seedDemo, type DemoSeedResult } from './seed-demo.ts';

/*
 * `npm run seed:demo` on a fresh database: the master data for a working matrix, and the
 * lifecycle behind every screen (issue 30), written through the services and signed for real;
 * a second run adds nothing.
 */

const t = useFacilityTestServer();
let seeded: DemoSeedResult;

beforeAll(async () => {
  seeded = (await seedDemo(t.server, t.facilityId))!;
}, 600_000);

const read = async (path: string): Promise<TestBody> => {
  const res = await t.call('GET', `${t.F}${path}`);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

describe('demo data', () => {
  it('fills the facility with enough master data for a working matrix', async () => {
    const { counts } = seeded;
    expect(counts.products).toBeGreaterThanOrEqual(40);
    expect(counts.equipment).toBeGreaterThanOrEqual(80);
    const input = await facilityLimitsInput(t.server.db, t.facilityId);
    const doc = contractDocument(input);
    expect(doc.pairs!.length).toBeGreaterThan(200);
    expect(doc.pairs!.every((p) => p.maco === null || p.maco.value > 0)).toBe(true);
    expect(doc.products.length).toBe(counts.products);
    const [bare] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from equipment e where e.facility_id = $1
          and not exists (select 1 from sampling_locations l where l.equipment_id = e.id)`,
      [t.facilityId],
    );
    expect(bare?.n).toBe(0);
  });

  it('gives every screen something real to show', async () => {
    const dashboard = (await read('/dashboard')).dashboard as TestBody;
    expect(dashboard.failures.failedRuns.count).toBeGreaterThan(0);
    expect(Object.values(dashboard.releaseFlags.counts as Record<string, number>)).toContainEqual(
      expect.any(Number),
    );

    const studies = await read('/studies?pageLimit=50');
    expect(studies.total).toBe(3);
    const outcomes = (studies.data as TestBody[]).map((s) => s.outcome).sort();
    expect(outcomes).toContain('Validated');
    for (const study of studies.data as TestBody[]) {
      const runs = (await read(`/studies/${study.id}/runs`)).runs as TestBody[];
      expect(runs.length, study.title).toBeGreaterThan(0);
    }
    const runs = await t.server.db.query<{ id: number; verdict: string }>(
      `select id, verdict from study_runs where facility_id = $1 order by id`,
      [t.facilityId],
    );
    expect(runs.map((r) => r.verdict)).toContain('Fail');

    // Results: passes, one failure with its investigation, and censored ones.
    const results = await t.server.db.query<{ censoring: string; passed: boolean }>(
      'select censoring, passed from sample_results where facility_id = $1',
      [t.facilityId],
    );
    expect(results.filter((r) => r.passed).length).toBeGreaterThan(10);
    expect(results.filter((r) => r.passed === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.censoring))).toEqual(new Set(['=', '< LOQ', '< LOD']));
    const [investigation] = await t.server.db.query<{ id: number }>(
      'select id from investigations where facility_id = $1',
      [t.facilityId],
    );
    expect((await read(`/investigations/${investigation!.id}`)).investigation).toMatchObject({
      outcome: 'confirmed',
    });

    const [line] = await t.server.db.query<{ id: number }>(
      `select id from productions where facility_id = $1 order by id limit 1`,
      [t.facilityId],
    );
    const statistics = (await read(`/verification/statistics?groupBy=production&key=${line!.id}`))
      .statistics as TestBody;
    expect(statistics.points.length).toBeGreaterThanOrEqual(3);

    const changes = await read('/change-assessments');
    expect((changes.changeAssessments as TestBody[]).map((c) => c.status)).toContain('Approved');
    const assessments = await read('/cleaning-assessments');
    expect(assessments.total).toBe(1);
    const protocols = await read('/protocols?pageLimit=50');
    expect(protocols.total).toBe(seeded.counts.productions);

    const reports = (await read('/reports?pageLimit=50')).reports as TestBody[];
    expect(reports).toHaveLength(seeded.counts.reports!);
    expect(reports.every((r) => r.completedAt !== null)).toBe(true);
  });

  it('writes through the audited, signed path, by the people whose job it is', async () => {
    const signatures = await t.server.request<TestBody[]>(
      'GET',
      `${t.F}/signatures?documentType=Run&documentId=${
        (
          await t.server.db.query<{ id: number }>(
            'select id from study_runs where facility_id = $1 order by id limit 1',
            [t.facilityId],
          )
        )[0]!.id
      }`,
      { token: t.token },
    );
    expect(signatures.status).toBe(200);
    const manifest = (signatures.body as unknown as { signatures: TestBody[] }).signatures;
    expect(manifest.map((s) => [s.action, s.printedName, s.valid])).toEqual([
      ['Submit', 'Paula Operator', true],
      ['Approve', 'Quentin Approver', true],
    ]);
    const [unaudited] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from sample_results r where r.facility_id = $1
          and not exists (select 1 from audit_log a where a.facility_id = r.facility_id
                           and a.domain = 'SampleResult' and a.entity_id = r.id::text)`,
      [t.facilityId],
    );
    expect(unaudited?.n).toBe(0);
    expect(seeded.people.map((p) => p.role)).toEqual([
      'Validation engineer',
      'QA approver',
      'Production',
      'Quality Control',
    ]);
  });

  it('adds nothing when run again', async () => {
    const before = await t.server.db.query<{ n: number }>(
      `select (select count(*) from products) + (select count(*) from studies)
              + (select count(*) from users) as n`,
    );
    expect(await seedDemo(t.server, t.facilityId)).toBeNull();
    const after = await t.server.db.query<{ n: number }>(
      `select (select count(*) from products) + (select count(*) from studies)
              + (select count(*) from users) as n`,
    );
    expect(after).toEqual(before);
  });
});
