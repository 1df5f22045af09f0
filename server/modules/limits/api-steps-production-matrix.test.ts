import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import {
  buildActive,
  buildEquipment,
  buildProduct,
  buildProduction,
  recordFactory,
} from '#server/test/factories/entities.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { facilityAt } from '#server/test/test-server.ts';
import { rowsOf, workbookOf } from '#server/test/xlsx-rows.ts';

/*
 * One production's own MAC matrix in an API plant (issue 32): its products run on the equipment
 * of the process steps that make their APIs, as in the facility's whole matrix, so the PDF of
 * macMatrix/production/{id} and the workbook narrowed to the production show that equipment and
 * its surface. The seed's second facility is an API plant.
 *
 * By hand: Line A has the blender (1 m²) and makes P-Met (metformin) and P-Gli (glipizide).
 * Metformin's process runs on the reactor (5 m²) then the dryer (2 m²); glipizide's on the dryer.
 * P-Met → P-Gli share the blender and the dryer: 10,000 + 20,000 = 30,000 cm² (the blender's
 * 10,000 cm² alone before API steps counted); the reactor is on P-Met's train only.
 */

const t = useFacilityTestServer();
let F: string;
let line: number;

beforeAll(async () => {
  const api = await facilityAt(t.server, 1);
  F = api.F;
  const scope = api.scope;
  const db = t.server.db;
  const record = recordFactory(db, scope);
  const amount = { value: 500, unit: 'mg' };
  const metformin = (await buildActive(db, scope, { name: 'Metformin HCl' })).id;
  const glipizide = (await buildActive(db, scope, { name: 'Glipizide' })).id;
  const area = (value: number) => ({ surfaceArea: { value, unit: 'sqm' } });
  const blender = (await buildEquipment(db, scope, { name: 'B-1 blender', ...area(1) })).id;
  const reactor = (await buildEquipment(db, scope, { name: 'R-101 reactor', ...area(5) })).id;
  const dryer = (await buildEquipment(db, scope, { name: 'D-201 dryer', ...area(2) })).id;
  const met = await buildProduct(db, scope, {
    name: 'P-Met',
    actives: [{ activeId: metformin, amount }],
  });
  const gli = await buildProduct(db, scope, {
    name: 'P-Gli',
    actives: [{ activeId: glipizide, amount }],
  });
  line = (
    await buildProduction(db, scope, {
      name: 'Line A',
      equipmentIds: [blender],
      productIds: [met.id, gli.id],
    })
  ).id;
  const metRoute = await record('api-productions', {
    name: 'Metformin route',
    activeId: metformin,
  });
  const gliRoute = await record('api-productions', {
    name: 'Glipizide route',
    activeId: glipizide,
  });
  const step = (apiProductionId: number, stepNumber: number, name: string, items: number[]) =>
    record('api-equipment', { apiProductionId, stepNumber, name, equipmentIds: items });
  await step(metRoute, 1, 'Reaction', [reactor]);
  await step(metRoute, 2, 'Drying', [dryer]);
  await step(gliRoute, 1, 'Drying', [dryer]);
});

const download = (path: string) =>
  fetch(`${t.server.url}${F}${path}`, { headers: { token: t.token } });

describe('API process steps in one production’s MAC matrix', () => {
  it('puts the steps’ equipment on the production’s trains, as the facility’s matrix does', async () => {
    const inputOf = async (query: string) => {
      const res = await t.call('GET', `${F}/limits/input${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.input as TestBody;
    };
    const own = await inputOf(`?productionId=${line}`);
    expect([...own.trains['P-Met']].sort()).toEqual([
      'B-1 blender',
      'D-201 dryer',
      'R-101 reactor',
    ]);
    expect([...own.trains['P-Gli']].sort()).toEqual(['B-1 blender', 'D-201 dryer']);
    expect(own.equipment.map((e: TestBody) => e.id).sort()).toEqual([
      'B-1 blender',
      'D-201 dryer',
      'R-101 reactor',
    ]);
    // The same trains as the whole facility's matrix gives these two products.
    const whole = await inputOf('');
    expect(whole.trains['P-Met']).toEqual(own.trains['P-Met']);
    expect(whole.trains['P-Gli']).toEqual(own.trains['P-Gli']);
  });

  it('prints the production’s PDF with the surface the steps share', async () => {
    const res = await download(`/macMatrix/production/${line}`);
    expect(res.status).toBe(200);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('MAC matrix · Line A');
    expect(text).toContain('P-Met -> P-Gli');
    expect(text).toContain('A = 30,000 cm²');
    expect(text).not.toContain('A = 10,000 cm²');
  });

  it('exports the production’s workbook with the steps’ equipment on its pairs', async () => {
    const res = await download(`/mac-matrix/export?productionId=${line}`);
    expect(res.status).toBe(200);
    const wb = await workbookOf(res);
    const pairs = rowsOf(wb.getWorksheet('Pairs'));
    const [titles, ...rows] = pairs;
    const column = (title: string) => titles!.indexOf(title);
    const pair = (previous: string, next: string) =>
      rows.find((r) => r[0] === previous && r[1] === next);
    const metToGli = pair('P-Met', 'P-Gli')!;
    expect(String(metToGli[column('Shared equipment')]).split(', ').sort()).toEqual([
      'B-1 blender',
      'D-201 dryer',
    ]);
    expect(metToGli[column('Shared area (cm²)')]).toBe(30000);
    expect(pair('P-Gli', 'P-Met')![column('Shared area (cm²)')]).toBe(30000);
    expect(rowsOf(wb.getWorksheet('Inputs')).find((r) => r[0] === 'Production')?.[1]).toBe(
      'Line A',
    );
  });
});
