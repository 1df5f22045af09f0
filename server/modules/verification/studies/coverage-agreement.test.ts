import { beforeAll, describe, expect, it } from 'vitest';
import { EQUIPMENT_STATES, type TEquipmentState } from '#core/schemas/dashboard.schemas.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { overdueAtEnd } from '../../reports/annual-summary-data.ts';
import { runKit } from '#server/test/run-test-kit.ts';

/*
 * One coverage model (issue 26, "One truth"): a study Validated on a production whose protocol
 * lists no equipment covers the train's equipment, and the dashboard, the cleaning assessment's
 * coverage matrix and the annual summary's equipment status say so alike. The MAC facility:
 * A and B on Line 1 (E1, E2), C and D on Line 2 (E3).
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { ok } = kit;
let studyId: number;
const ids: Record<string, number> = {};

const idOf = async (path: string, name: string) =>
  (
    (await ok('GET', `/${path}?search=${encodeURIComponent(name)}&pageLimit=100`)).data as Body[]
  ).find((r) => r.name === name)!.id as number;

/** The dashboard's counts by state: those given, 0 for the others. */
const counts = (given: Partial<Record<TEquipmentState, number>>) =>
  Object.fromEntries(EQUIPMENT_STATES.map((state) => [state, given[state] ?? 0]));

async function assessment(): Promise<Body> {
  const started = (await ok('POST', '/cleaning-assessments', {})).cleaningAssessment as Body;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const a = (await ok('GET', `/cleaning-assessments/${started.id}`)).cleaningAssessment as Body;
    if (a.progress.state === 'done') return a;
    if (a.progress.state === 'failed' || Date.now() > deadline)
      throw new Error(`assessment ${a.id}: ${JSON.stringify(a.progress)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  await kit.build();
  for (const name of ['Line 1', 'Line 2']) ids[name] = await idOf('productions', name);
  for (const name of ['E1', 'E2', 'E3']) ids[name] = await idOf('equipments', name);
  // The kit's protocol lists products A and B and samples E1 only; it names no equipment.
  studyId = await kit.study({ productionId: ids['Line 1'] });
  for (let run = 0; run < 3; run++) await kit.completedRun(studyId);
  expect((await kit.studyRow(studyId)).outcome).toBe('Validated');
}, 240_000);

describe('the coverage model', () => {
  it('counts the train of a study that lists no equipment alike on the dashboard, the matrix and the report', async () => {
    const [pinned] = await t.server.db.query<{ equipment: unknown }>(
      `select protocol_content -> 'equipmentIds' as equipment from studies where id = $1`,
      [studyId],
    );
    expect(pinned!.equipment ?? []).toEqual([]);

    // The dashboard: E1 and E2 Validated through Line 1, E3 not covered.
    const dashboard = (await ok('GET', '/dashboard')).dashboard.equipmentStatus as Body;
    expect(dashboard.equipmentCount).toBe(3);
    expect(dashboard.counts).toEqual(counts({ Validated: 2, 'Not covered': 1 }));

    // The coverage matrix: both products of Line 1 covered by the study, Line 2 not.
    const matrix = (await assessment()).result.coverage as Body[];
    const cell = (train: string, product: string) =>
      matrix.find((c) => c.train === train && c.product === product)!;
    for (const product of ['A', 'B'])
      expect(cell('Line 1', product)).toMatchObject({
        state: 'study',
        evidence: [expect.objectContaining({ kind: 'study', id: studyId })],
      });
    for (const product of ['C', 'D']) expect(cell('Line 2', product).state).toBe('notCovered');

    // The annual summary's equipment status at the report's moment.
    const now = new Date().toISOString();
    const report = await overdueAtEnd(
      t.server.db,
      t.facilityId,
      { start: now.slice(0, 10), end: now.slice(0, 10), until: now },
      now,
    );
    expect(report.equipmentCount).toBe(dashboard.equipmentCount);
    expect(report.counts).toEqual(dashboard.counts);

    // All three agree: the equipment of the trains the matrix counts covered is what the
    // dashboard and the report count Validated.
    const coveredTrains = new Set(
      matrix.filter((c) => c.state === 'study').map((c) => c.trainId as number),
    );
    const trainEquipment = { [ids['Line 1']!]: [ids.E1, ids.E2], [ids['Line 2']!]: [ids.E3] };
    const validatedByMatrix = [...coveredTrains].flatMap((id) => trainEquipment[id] ?? []);
    expect(validatedByMatrix).toHaveLength(dashboard.counts.Validated);
    expect(validatedByMatrix).toHaveLength(report.counts.Validated);
  });

  it('adds the items its sampling plan samples, and the Overdue filter reads the same model', async () => {
    // A study with neither a train nor a list of equipment covers what its plan samples: E1,
    // whose latest study it now is (On Going).
    const other = await kit.study();
    const dashboard = (await ok('GET', '/dashboard')).dashboard.equipmentStatus as Body;
    expect(dashboard.counts).toEqual(counts({ Validated: 1, 'On Going': 1, 'Not covered': 1 }));
    // Made long ago, the first study would be overdue for E2 alone (E1's latest is the other).
    await t.server.db.query(
      `update studies set closed_at = now() - interval '400 days' where id = $1`,
      [studyId],
    );
    try {
      const overdue = (await ok('GET', '/dashboard')).dashboard.equipmentStatus as Body;
      expect(overdue.counts).toMatchObject({ Validated: 0, Overdue: 1 });
      expect(overdue.overdue).toEqual([expect.objectContaining({ id: ids.E2, name: 'E2' })]);
      const listed = (await ok('GET', '/studies?overdue=true')).data as Body[];
      expect(listed.map((s) => s.id)).toEqual([studyId]);
      expect(other).not.toBe(studyId);
    } finally {
      await t.server.db.query(`update studies set closed_at = null where id = $1`, [studyId]);
    }
  });
});
