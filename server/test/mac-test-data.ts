import type { TestServer } from '#server/test/test-server.ts';

export interface MacFacility {
  F: string;
  facilityId: number;
  line1: number;
  line2: number;
}

/**
 * A small facility whose matrix is known by hand: A and B share E1 and E2 on Line 1; C and D
 * share E3 on Line 2; nothing crosses the lines, so A → C has no cell. C's active has a PDE
 * far above its therapeutic dose, so every pair after C is flagged.
 */
export async function buildMacFacility(
  server: TestServer,
  token: string,
  facilityId: number,
): Promise<MacFacility> {
  const [f] = await server.db.query<{ plan_id: number }>(
    'select plan_id from facilities where id = $1',
    [facilityId],
  );
  const F = `/api/v2/plans/${f!.plan_id}/facilities/${facilityId}`;
  const create = async (path: string, body: unknown): Promise<number> => {
    const res = await server.request<{ result: { id: number } }>('POST', `${F}/${path}`, {
      token,
      body,
    });
    if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    return res.body.result.id;
  };
  const alpha = await create('apis', {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
    acceptableIntake: { value: 96, unit: 'ng' },
  });
  const beta = await create('apis', { name: 'Beta', pde: { value: 1, unit: 'ug' } });
  const gamma = await create('apis', {
    name: 'Gamma',
    pde: { value: 5, unit: 'mg' },
    therapeuticDose: { value: 1, unit: 'mg' },
  });
  const product = (name: string, activeId: number, mdd: number, mbs: number) =>
    create('products', {
      name,
      maxDailyDose: { value: mdd, unit: 'mg' },
      minBatchSize: { value: mbs, unit: 'kg' },
      actives: [{ activeId, amount: { value: 10, unit: 'mg' } }],
    });
  const a = await product('A', alpha, 200, 50);
  const b = await product('B', beta, 400, 100);
  const c = await product('C', gamma, 100, 20);
  const d = await product('D', beta, 300, 80);
  const e1 = await create('equipments', { name: 'E1', surfaceArea: { value: 12.5, unit: 'sqm' } });
  const e2 = await create('equipments', { name: 'E2', surfaceArea: { value: 5000, unit: 'sqcm' } });
  const e3 = await create('equipments', { name: 'E3', surfaceArea: { value: 1, unit: 'sqm' } });
  const line1 = await create('productions', {
    name: 'Line 1',
    equipmentIds: [e1, e2],
    productIds: [a, b],
  });
  const line2 = await create('productions', {
    name: 'Line 2',
    equipmentIds: [e3],
    productIds: [c, d],
  });
  return { F, facilityId, line1, line2 };
}
