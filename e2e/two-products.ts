/** Creates one record through the API and answers its id (see createViaApi in ui.ts). */
export type CreateRecord = (path: string, body: unknown) => Promise<number>;

/**
 * The two-product facility of server/modules/limits/limits.test.ts: Alpha in A, Beta in B, both
 * made on Line 1 (E1 of 12.5 sqm, and E2 of 5,000 sqcm unless `oneItem`). B → A's MACO is 250 mg.
 */
export async function seedTwoProducts(
  create: CreateRecord,
  options: { oneItem?: boolean } = {},
): Promise<{ a: number; b: number }> {
  const alpha = await create('apis', {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
  });
  const beta = await create('apis', { name: 'Beta', pde: { value: 1, unit: 'ug' } });
  const a = await create('products', {
    name: 'A',
    maxDailyDose: { value: 200, unit: 'mg' },
    minBatchSize: { value: 50, unit: 'kg' },
    actives: [{ activeId: alpha, amount: { value: 10, unit: 'mg' } }],
  });
  const b = await create('products', {
    name: 'B',
    maxDailyDose: { value: 400, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: beta, amount: { value: 5, unit: 'mg' } }],
  });
  const equipmentIds = [
    await create('equipments', { name: 'E1', surfaceArea: { value: 12.5, unit: 'sqm' } }),
  ];
  if (!options.oneItem)
    equipmentIds.push(
      await create('equipments', { name: 'E2', surfaceArea: { value: 5000, unit: 'sqcm' } }),
    );
  await create('productions', { name: 'Line 1', equipmentIds, productIds: [a, b] });
  return { a, b };
}
