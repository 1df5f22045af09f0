import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { aspectOf } from './changeover-sheet.ts';

/*
 * Issue 31: the sampling sheet of a changeover (GET {F}/changeovers/pdf), read back as text, with
 * a location placed on a picture of its equipment.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
let f: RunFacility;
let line1: number;
/** A 2 × 1 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAHAQEAvi4e8QAAAABJRU5ErkJggg==';

beforeAll(async () => {
  f = await kit.build();
  const [row] = await t.server.db.query<{ id: number; equipment_id: number }>(
    `select p.id, l.equipment_id from productions p, sampling_locations l
      where p.facility_id = $1 and p.name = 'Line 1' and l.id = $2`,
    [t.facilityId, f.steel],
  );
  line1 = row!.id;
  const e1 = row!.equipment_id;
  const image = await t.call('POST', `${t.F}/equipments/${e1}/images`, {
    imageData: `data:image/png;base64,${PNG_BASE64}`,
    name: 'Front view',
    reason: 'For the sampling sheet',
  });
  expect(image.status, JSON.stringify(image.body)).toBe(200);
  const L = `${t.F}/equipments/${e1}/sampling-locations/${f.steel}`;
  const location = await t.call('GET', L);
  const placed = await t.call('PUT', L, {
    data: { imageId: image.body.result.id, x: 0.3, y: 0.6 },
    reason: 'Placed on the picture',
    version: location.body.version,
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
});

describe('the changeover sampling sheet', () => {
  it('prints the decision, the numbered samples with their limits and the marked picture', async () => {
    const [a, b] = f.productIds as [number, number];
    const query = `from=${a}&to=${b}&production=${line1}`;
    const decision = (await t.call('GET', `${t.F}/changeovers?${query}`)).body;
    const res = await fetch(`${t.server.url}${t.F}/changeovers/pdf?${query}`, {
      headers: { token: t.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('changeover-sampling-sheet.pdf');
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('Changeover: A -> B on Line 1');
    expect(text).toContain('Verification required:');
    for (const reason of decision.reasons) expect(text).toContain(reason);
    expect(text).toMatch(/1\s+Valve\s+E1\s+swab/);
    expect(text).toMatch(/2\s+Gasket\s+E1\s+swab/);
    expect(text).toContain('mg/swab');
    // The picture with Valve's number marked on it; Gasket has no place on it.
    expect(text.slice(text.indexOf('E1: Front view'))).toMatch(/^E1: Front view\s+1\n/);
    const audit = await t.server.db.query<{ new_values: Record<string, unknown> }>(
      `select new_values from audit_log where domain = 'Production' and action = 'Export'
        and entity_id = $1`,
      [String(line1)],
    );
    expect(audit[0]?.new_values).toMatchObject({ report: 'changeover-sampling-sheet' });
  });

  it('prints with each limit the recovery it carries, as the protocol’s method recovers there', async () => {
    const [a, b] = f.productIds as [number, number];
    // A study's protocol on E1 samples the valve with a method recovering 80 % from its steel.
    await kit.study({ productionId: line1 });
    const query = `from=${a}&to=${b}&production=${line1}`;
    const decision = (await t.call('GET', `${t.F}/changeovers?${query}`)).body;
    const valve = decision.samplingPlan.find((s: { recovery: number }) => s.recovery === 0.8);
    expect(valve, JSON.stringify(decision.samplingPlan)).toBeDefined();
    const res = await fetch(`${t.server.url}${t.F}/changeovers/pdf?${query}`, {
      headers: { token: t.token },
    });
    expect(res.status).toBe(200);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    // The pair's swab limit 0.1923 mg/swab × 0.8 = 0.1538 mg/swab for what is measured.
    expect(text).toMatch(/1\s+Valve\s+E1\s+swab\s+HPLC-1\s+0.1538 mg\/swab\s+\(recovery 80 %\)/);
  });

  it('answers as the decision for unknown products', async () => {
    const res = await t.call('GET', `${t.F}/changeovers/pdf?from=99999999&to=1&production=1`);
    expect(res.status).toBe(404);
  });

  it('reads a picture’s proportions from its header', () => {
    expect(aspectOf(PNG_BASE64)).toBe(2);
    expect(aspectOf('bm90IGFuIGltYWdl')).toBe(1);
  });
});
