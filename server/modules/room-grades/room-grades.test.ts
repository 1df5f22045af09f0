import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { facilityPath } from '#server/test/test-server.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let otherF: string;
beforeAll(async () => {
  otherF = await facilityPath(t.server, 1);
});

async function equipment(name: string, at = t.F, roomGrade?: string): Promise<number> {
  const res = await t.call('POST', `${at}/equipments`, {
    name,
    surfaceArea: { value: 1, unit: 'sqm' },
    ...(roomGrade ? { roomGrade } : {}),
  });
  return res.body.result.id;
}

describe('room grades', () => {
  it('are refused without the Equipment permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', `${t.F}/room-grades`, undefined, as)).status).toBe(200);
    const refused = await t.call(
      'POST',
      `${t.F}/room-grades/A`,
      { equipments: [], reason: 'x' },
      as,
    );
    expect(refused.status).toBe(403);
    const stranger = await buildUser(t.server.db);
    const other = await t.server.login(stranger.username, stranger.password);
    expect((await t.call('GET', `${t.F}/room-grades`, undefined, other)).status).toBe(403);
  });

  it('are A to D in every facility', async () => {
    for (const at of [t.F, otherF]) {
      const res = await t.call('GET', `${at}/room-grades`);
      expect(res.body.data.map((g: Body) => [g.grade, g.equipmentIds, g.version])).toEqual([
        ['A', [], 1],
        ['B', [], 1],
        ['C', [], 1],
        ['D', [], 1],
      ]);
    }
  });

  it('set the equipment of a grade with a reason, audited on each item', async () => {
    const isolator = await equipment('Isolator', t.F, 'B');
    const filler = await equipment('Filler');
    const stopper = await equipment('Stopper bowl');
    const foreign = await equipment('Foreign item', otherF);
    const noReason = await t.call('POST', `${t.F}/room-grades/A`, { equipments: [filler] });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');
    const unknown = await t.call('POST', `${t.F}/room-grades/A`, {
      equipments: [filler, foreign],
      reason: 'Aseptic core',
      version: 1,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].property).toBe('equipments[1]');
    const set = await t.call('POST', `${t.F}/room-grades/A`, {
      equipments: [filler, stopper, isolator],
      reason: 'Aseptic core',
      version: 1,
    });
    expect(set.status).toBe(200);
    expect(set.body.result).toMatchObject({
      grade: 'A',
      equipmentIds: [isolator, filler, stopper].sort((a, b) => a - b),
      version: 2,
    });
    expect((await t.call('GET', `${t.F}/equipments/${isolator}`)).body).toMatchObject({
      roomGrade: 'A',
      version: 2,
    });
    const [audit] = await t.server.db.query<Body>(
      `select reason, old_values, new_values from audit_log where domain = 'Equipment' and action = 'Update' and entity_id = $1`,
      [String(isolator)],
    );
    expect(audit).toEqual({
      reason: 'Aseptic core',
      old_values: { roomGrade: 'B' },
      new_values: { roomGrade: 'A' },
    });
    const stale = await t.call('POST', `${t.F}/room-grades/A`, {
      equipments: [filler],
      reason: 'x',
      version: 1,
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const same = await t.call('POST', `${t.F}/room-grades/A`, {
      equipments: [stopper, filler, isolator],
      reason: 'x',
      version: 2,
    });
    expect(same.body.errName).toBe('NothingToChangeError');

    // By id as well as by letter; items left out lose the grade.
    const gradeA = set.body.result.id;
    const narrowed = await t.call('POST', `${t.F}/room-grades/${gradeA}`, {
      equipments: [filler],
      reason: 'Stopper bowl moved out',
      version: 2,
    });
    expect(narrowed.body.result.equipmentIds).toEqual([filler]);
    const noGrade = await t.call('GET', `${t.F}/equipments/no-grade`);
    expect(noGrade.body.data.map((e: Body) => e.id)).toEqual(
      expect.arrayContaining([stopper, isolator]),
    );
    expect(
      (await t.call('POST', `${t.F}/room-grades/E`, { equipments: [], reason: 'x', version: 1 }))
        .status,
    ).toBe(404);
  });
});
