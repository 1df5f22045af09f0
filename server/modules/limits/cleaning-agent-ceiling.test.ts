import { describe, expect, it } from 'vitest';
import { recordCreator } from '#server/test/create-record.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/*
 * Issue 26: the cleaning agent's "Ceiling (ppm)" was stored and never read, so 1 ppm entered left
 * the limits at the Detergent policy's 10 ppm. Next product N: minimum batch 120 kg, maximum daily
 * dose 500 mg, on E (2 sqm). The agent's LD50 of 5000 mg/kg gives NOEL = 5000 × 70 / 2000 =
 * 175 mg/day and MACO = 175 × 120e6 / (1000 × 500) = 42,000 mg; the policy's 10 ppm × 120 kg =
 * 1,200 mg governs until the agent's 1 ppm × 120 kg = 120 mg does.
 */
const t = useFacilityTestServer();
const { generate, xlsxOf } = reportKit(t);

async function agentLimit() {
  const res = await t.call('GET', `${t.F}/limits/cleaning-agents`);
  expect(res.status).toBe(200);
  return (res.body.limits as TestBody[]).find((l) => l.agent === 'Alkaline' && l.next === 'N')!;
}

async function reportRow() {
  const report = await generate({ kind: 'cleaning-agent-limits' });
  expect(report).toMatchObject({ error: null });
  const { sheets } = await xlsxOf(`/reports/cleaning-agent-limits/${report.id}/xlsx`);
  const [header, ...rows] = sheets.get('Cleaning agent limits')!;
  const row = rows.find((r) => r[0] === 'Alkaline' && r[1] === 'N')!;
  const cell = (name: string) => row[header!.indexOf(name)];
  return { maco: cell('MACO (mg)'), governing: cell('Governing criterion') };
}

function expectMaco(row: TestBody, maco: number, governing: string) {
  expect(row.maco).toBeCloseTo(maco, 9);
  expect(row.governing).toBe(governing);
}

async function editCeiling(agentId: number, ppmCeiling: number, reason: string) {
  const detail = await t.call('GET', `${t.F}/cleaning_agents/${agentId}`);
  const edit = await t.call('POST', `${t.F}/cleaning_agents/${agentId}`, {
    ppmCeiling,
    version: detail.body.version,
    reason,
  });
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
}

describe('The cleaning agent’s own ppm ceiling', () => {
  it('holds the agent’s limits and its report, and follows an edit: 1,200 mg → 120 mg', async () => {
    const create = recordCreator(t.server, t.token, t.F);
    const agentId = await create('cleaning_agents', {
      name: 'Alkaline',
      ld50: { value: 5000, unit: 'mg/kg' },
      ppmCeiling: 10,
    });
    const product = await create('products', {
      name: 'N',
      maxDailyDose: { value: 500, unit: 'mg' },
      minBatchSize: { value: 120, unit: 'kg' },
    });
    const e = await create('equipments', { name: 'E', surfaceArea: { value: 2, unit: 'sqm' } });
    await create('productions', { name: 'Line', equipmentIds: [e], productIds: [product] });

    const before = await agentLimit();
    expect(before.ld50).toBeCloseTo(42_000, 6);
    expect(before.arl).toBeCloseTo(1_200, 9);
    expect(before.ceiling).toBeCloseTo(1_200, 9);
    // At the policy's own 10 ppm the agent's ceiling ties and the general limit keeps governing.
    expectMaco(before, 1_200, 'arl');
    // The report names the criterion in words (issue 30).
    expectMaco(await reportRow(), 1_200, 'General limit');

    await editCeiling(agentId, 1, 'Supplier specification: 1 ppm in the next product');

    const after = await agentLimit();
    expect(after.ceiling).toBeCloseTo(120, 9);
    expectMaco(after, 120, 'ceiling');
    // SAL over the train: 120 mg / 20,000 sqcm.
    expect(after.sal).toBeCloseTo(0.006, 12);
    expect(after.derivations.maco.note).toBe('ppm ceiling of the agent (1 ppm) governs');
    expect(after.derivations.ceiling.inputs[0]).toMatchObject({
      value: 1,
      record: { kind: 'cleaningAgent', name: 'Alkaline', field: 'ceiling (ppm)' },
    });
    expectMaco(await reportRow(), 120, 'Agent ppm ceiling');

    // A ceiling above the policy's default never raises the limit above the general limit's.
    await editCeiling(agentId, 50, 'Supplier specification revised');
    const raised = await agentLimit();
    expect(raised.ceiling).toBeCloseTo(6_000, 9);
    expectMaco(raised, 1_200, 'arl');
  });
});
