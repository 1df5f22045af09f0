import { describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestResponse } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

const at = (asOf: string) => `asOf=${encodeURIComponent(asOf)}`;

const mixer = {
  name: 'Versioned mixer',
  externalId: 'EQ-V1',
  surfaceArea: { value: 12.5, unit: 'sqm' },
  material: 'Stainless steel 316L',
  roomGrade: 'C',
};

describe('versions of a declared entity', () => {
  it('keeps each change: create, edit, archive, unarchive, with when and by whom', async () => {
    const created = await t.call('POST', `${t.F}/equipments`, mixer);
    const id = created.body.result.id as number;
    const edited = await t.call('POST', `${t.F}/equipments/${id}`, {
      surfaceArea: { value: 20, unit: 'sqm' },
      reason: 'Measured again',
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(
      (await t.call('PUT', `${t.F}/equipments/${id}/archive`, { reason: 'Sold' })).status,
    ).toBe(200);
    const restored = await t.call('POST', `${t.F}/equipments/${id}`, {
      unArchive: true,
      reason: 'Bought back',
    });
    expect(restored.status).toBe(200);

    const { status, body } = await t.call('GET', `${t.F}/equipments/${id}/versions`);
    expect(status).toBe(200);
    const versions = body.versions as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked below
    expect(versions.map((v) => [v.version, v.archived])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, false],
    ]);
    const [admin] = await t.server.db.query<{ id: number; name: string }>(
      `select id, first_name || ' ' || last_name as name from users where email = 'admin@example.com'`,
    );
    for (const v of versions) expect(v.recordedBy).toEqual({ id: admin!.id, name: admin!.name });
    // Not a controlled record: no controlled version to name.
    for (const v of versions) expect(v).not.toHaveProperty('versionNumber');
    const times = versions.map((v) => Date.parse(v.recordedAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(versions[0]!.values.surfaceArea).toEqual({ value: 12.5, unit: 'sqm' });
    expect(versions[1]!.values.surfaceArea).toEqual({ value: 20, unit: 'sqm' });
    expect(versions[2]!.values.archiveReason).toBe('Sold');
    // The last version is the record as the detail read gives it now.
    const live = await t.call('GET', `${t.F}/equipments/${id}`);
    expect(versions[3]!.values).toEqual(live.body);

    // asOf at each recordedAt answers with that version, on the detail and on the lists.
    for (const asOf of versions.map((v) => v.recordedAt)) {
      // The last version recorded then (PGlite's clock counts milliseconds: two may share one).
      const v = versions.filter((x) => x.recordedAt <= asOf).at(-1)!;
      const then = await t.call('GET', `${t.F}/equipments/${id}?${at(asOf)}`);
      expect(then.status).toBe(200);
      expect(then.body).toEqual(v.values);
      const active = await t.call('GET', `${t.F}/equipments?${at(asOf)}`);
      const archived = await t.call('GET', `${t.F}/archived/equipments?${at(asOf)}`);
      const ids = (page: TestResponse) =>
        (page.body.data as Array<{ id: number }>).map((r) => r.id);
      expect(ids(active).includes(id)).toBe(!v.archived);
      expect(ids(archived).includes(id)).toBe(v.archived);
      if (!v.archived)
        expect(active.body.data.find((r: { id: number }) => r.id === id)).toEqual(v.values);
    }

    // Before it existed: not found, and not in the list.
    const before = new Date(Date.parse(versions[0]!.recordedAt) - 1).toISOString();
    expect((await t.call('GET', `${t.F}/equipments/${id}?${at(before)}`)).status).toBe(404);
    const emptyThen = await t.call('GET', `${t.F}/equipments?${at(before)}`);
    expect(emptyThen.body.data.map((r: { id: number }) => r.id)).not.toContain(id);
  });

  it('answers 404 for a record of no version or of another facility, and 422 for an asOf that is no date-time', async () => {
    expect((await t.call('GET', `${t.F}/equipments/999999/versions`)).status).toBe(404);
    // A record of another facility is not found from this one, now or as of any moment.
    const [other] = await t.server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id offset 1 limit 1',
    );
    const otherF = `/api/v2/plans/${other!.plan_id}/facilities/${other!.id}`;
    const theirs = await t.call('POST', `${otherF}/equipments`, { ...mixer, name: 'Theirs' });
    const id = theirs.body.result.id as number;
    expect((await t.call('GET', `${otherF}/equipments/${id}/versions`)).status).toBe(200);
    expect((await t.call('GET', `${t.F}/equipments/${id}/versions`)).status).toBe(404);
    const now = new Date(Date.now() + 60_000).toISOString();
    expect((await t.call('GET', `${t.F}/equipments/${id}?${at(now)}`)).status).toBe(404);
    const bad = await t.call('GET', `${t.F}/equipments?asOf=yesterday`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('asOf');
  });

  it('is refused to a user without the right to read the record', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    const refused = await t.server.request('GET', `${t.F}/equipments/1/versions`, { token: as });
    expect(refused.status).toBe(403);
  });
});
