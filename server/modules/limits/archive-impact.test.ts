import { beforeAll, describe, expect, it } from 'vitest';
import { recordCreator } from '#server/test/create-record.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

/**
 * Issue 9: archiving something the limits depend on is an impact decision. Without
 * `confirmImpact: true` the API refuses it, saying where the record is used and which limits
 * change; with it, the record is archived and audited.
 */
const t = useFacilityTestServer();
const ids: Record<string, number> = {};

beforeAll(async () => {
  const post = recordCreator(t.server, t.token, t.F);
  const create = async (path: string, body: Record<string, unknown>) => {
    const id = await post(path, body);
    ids[String(body.name)] = id;
    return id;
  };
  const strong = await create('apis', { name: 'Strong', pde: { value: 0.0001, unit: 'mg' } });
  const weak = await create('apis', { name: 'Weak', pde: { value: 10, unit: 'mg' } });
  await create('apis', { name: 'Unused active', pde: { value: 1, unit: 'mg' } });
  const combo = await create('products', {
    name: 'Combo',
    minBatchSize: { value: 100, unit: 'kg' },
    maxDailyDose: { value: 400, unit: 'mg' },
    actives: [{ activeId: strong }, { activeId: weak }],
  });
  const other = await create('products', {
    name: 'Other',
    minBatchSize: { value: 50, unit: 'kg' },
    maxDailyDose: { value: 200, unit: 'mg' },
    actives: [{ activeId: weak }],
  });
  const mixer = await create('equipments', {
    name: 'Mixer',
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  const press = await create('equipments', {
    name: 'Press',
    surfaceArea: { value: 1, unit: 'sqm' },
  });
  await create('equipments', { name: 'Spare', surfaceArea: { value: 1, unit: 'sqm' } });
  await create('productions', {
    name: 'Line 1',
    equipmentIds: [mixer, press],
    productIds: [combo, other],
  });
});

const archive = (path: string, body: Record<string, unknown>) =>
  t.server.request<Record<string, any>>('PUT', `${t.F}/${path}/archive`, { token: t.token, body }); // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

describe('archiving a record the limits depend on', () => {
  it.each([
    [
      'an active still in products',
      'apis',
      'Weak',
      ["product 'Combo'", "product 'Other'"],
      /limits? change/,
    ],
    [
      'an active governing a product',
      'apis',
      'Strong',
      ["product 'Combo'"],
      /Combo → Other: MACO 25 mg → 500 mg/,
    ],
    ['equipment in a production', 'equipments', 'Mixer', ["production 'Line 1'"], /limits? change/],
    [
      'a product in a production',
      'products',
      'Combo',
      ["production 'Line 1'"],
      /2 pairs are no longer computed/,
    ],
  ])('refuses %s unless the impact is confirmed', async (_what, path, name, usedIn, change) => {
    const id = ids[name]!;
    const refused = await archive(`${path}/${id}`, { reason: 'no longer made' });
    expect(refused.status).toBe(422);
    expect(refused.body.errName).toBe('DataValidationError');
    expect(refused.body.errors[0]).toMatchObject({ property: 'confirmImpact' });
    expect(
      refused.body.errors
        .slice(1)
        .map((e: { constraints: { usedIn: string } }) => e.constraints.usedIn),
    ).toEqual(usedIn);
    for (const place of usedIn) expect(refused.body.message).toContain(place);
    expect(refused.body.message).toMatch(change);
    const still = await t.server.request<{ archivedAt: string | null }>(
      'GET',
      `${t.F}/${path}/${id}`,
      {
        token: t.token,
      },
    );
    expect(still.body.archivedAt).toBeNull();
    // confirmImpact: false is no confirmation either
    expect((await archive(`${path}/${id}`, { reason: 'x', confirmImpact: false })).status).toBe(
      422,
    );
  });

  it('archives with the impact confirmed, audited with the reason', async () => {
    const id = ids.Strong!;
    const reason = 'Strong discontinued; Combo limits rise as shown';
    const res = await archive(`apis/${id}`, { reason, confirmImpact: true });
    expect(res.status).toBe(200);
    expect(res.body.result.archivedAt).not.toBeNull();
    const [audit] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where domain = 'API' and action = 'Archive' and entity_id = $1 and reason = $2`,
      [id, reason],
    );
    expect(audit!.n).toBe(1);
  });

  it.each([
    ['an active in no product', 'apis', 'Unused active'],
    ['equipment in no production', 'equipments', 'Spare'],
  ])('archives %s without asking', async (_what, path, name) => {
    const res = await archive(`${path}/${ids[name]!}`, { reason: 'not used' });
    expect(res.status).toBe(200);
  });
});
