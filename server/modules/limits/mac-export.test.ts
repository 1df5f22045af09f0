import { criterionLabel } from '#core/labels/enum-labels.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { facilityLimitsInput } from './facility-limits-input.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { rowsOf, workbookOf } from '#server/test/xlsx-rows.ts';

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const download = (path: string, as = t.token) =>
  fetch(`${t.server.url}${facility.F}${path}`, { headers: { token: as } });

describe('MAC matrix downloads', () => {
  it('refuses a caller without RiskCalculation Get on every download', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const other = await t.server.login(user.username, user.password);
    for (const path of [
      '/mac-matrix/export',
      '/mac-matrix/pairs',
      `/macMatrix/production/${facility.line1}`,
      `/macMatrix/production/${facility.line1}/nitrosamine`,
    ]) {
      expect((await download(path, other)).status, path).toBe(403);
    }
  });

  it('exports the matrix, its pairs and its inputs as xlsx with the engine’s numbers', async () => {
    const res = await download('/mac-matrix/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const disposition = res.headers.get('content-disposition') ?? '';
    const [row] = await t.server.db.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facility.facilityId],
    );
    expect(disposition).toMatch(
      new RegExp(
        `filename="MAC Matrix ${row!.name} \\d{4}-\\d\\d-\\d\\d \\d\\d-\\d\\d-\\d\\d\\.xlsx"`,
      ),
    );
    const wb = await workbookOf(res);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['MAC Matrix', 'Pairs', 'Inputs']);
    const engine = contractDocument(await facilityLimitsInput(t.server.db, facility.facilityId));

    const matrix = rowsOf(wb.getWorksheet('MAC Matrix'));
    expect(matrix[0]).toEqual(['Previous ↓ · Next → · governing MACO (mg)', 'A', 'B', 'C', 'D']);
    const cell = (previous: string, next: string) =>
      matrix.find((r) => r[0] === previous)?.[['A', 'B', 'C', 'D'].indexOf(next) + 1];
    for (const pair of engine.pairs!) {
      expect(cell(pair.previous, pair.next)).toBeCloseTo(pair.maco!.value, 12);
    }
    // B after A: the general limit, 10 ppm × 100 kg = 1,000 mg (see limits.test.ts).
    expect(cell('A', 'B')).toBeCloseTo(1_000, 9);
    expect(cell('A', 'C')).toBeUndefined();
    expect(cell('C', 'B')).toBeUndefined();

    const [header, ...pairs] = rowsOf(wb.getWorksheet('Pairs'));
    expect(header).toEqual(
      expect.arrayContaining([
        'Shared area (cm²)',
        'Health-based MACO (mg)',
        'Dose-based MACO (mg)',
        'General limit (ARL) MACO (mg)',
        'MACO (mg)',
        'SAL (mg/cm²)',
        'Swab limit (mg/swab)',
        'Rinse limit (mg/ml)',
        'Governing criterion',
        'Flags',
      ]),
    );
    expect(pairs).toHaveLength(engine.pairs!.length);
    const col = (name: string) => header!.indexOf(name);
    engine.pairs!.forEach((pair, i) => {
      const r = pairs[i]!;
      expect([r[0], r[1]]).toEqual([pair.previous, pair.next]);
      expect(r[col('Shared equipment')]).toBe(pair.sharedEquipment.join(', '));
      expect(r[col('Shared area (cm²)')]).toBe(pair.area.value);
      expect(r[col('Health-based MACO (mg)')]).toBeCloseTo(pair.criteria.health!.value, 12);
      expect(r[col('MACO (mg)')]).toBeCloseTo(pair.maco!.value, 12);
      expect(r[col('SAL (mg/cm²)')]).toBeCloseTo(pair.sal!.value, 15);
      // In words, as the screen names it ('Health-based'), never the engine's key.
      expect(r[col('Governing criterion')]).toBe(criterionLabel(pair.governing!));
    });
    const afterC = pairs.find((r) => r[0] === 'C')!;
    expect(afterC[col('Flags')]).toContain('Health-based MACO over 10');

    const inputs = new Map(rowsOf(wb.getWorksheet('Inputs')).map((r) => [r[0], r.slice(1)]));
    expect(inputs.get('Facility')?.[0]).toBe(row!.name);
    expect(inputs.get('Exported by')?.[0]).toBeTruthy();
    expect(inputs.get('Exported at (UTC)')?.[0]).toBeInstanceOf(Date);
    expect(inputs.get('Unit of MACO')?.[0]).toBe('mg');
    expect(inputs.get('Policy: ARL')).toEqual([10, 'ppm']);
    expect(inputs.get('Pairs sharing equipment')?.[0]).toBe(engine.pairs!.length);

    const [audit] = await t.server.db.query<{ new_values: { format: string } }>(
      `select new_values from audit_log where domain = 'RiskCalculation' and action = 'Export'
        order by id desc limit 1`,
    );
    expect(audit?.new_values.format).toBe('xlsx');
  });

  it('narrows the export to one production and refuses bad or unknown ones', async () => {
    const wb = await workbookOf(
      await download(`/mac-matrix/export?productionId=${facility.line2}`),
    );
    expect(rowsOf(wb.getWorksheet('MAC Matrix'))[0]).toEqual([
      'Previous ↓ · Next → · governing MACO (mg)',
      'C',
      'D',
    ]);
    expect(rowsOf(wb.getWorksheet('Pairs'))).toHaveLength(3);
    const inputs = rowsOf(wb.getWorksheet('Inputs'));
    expect(inputs.find((r) => r[0] === 'Production')?.[1]).toBe('Line 2');

    const bad = await download('/mac-matrix/export?productionId=abc');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errName: 'DataValidationError' });
    const unknown = await download('/mac-matrix/export?productionId=999999');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errName: 'NotFoundError' });
  });

  it('prints one production’s matrix with its derivations and page numbers', async () => {
    const res = await download(`/macMatrix/production/${facility.line1}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('MAC Matrix Line 1.pdf');
    const { text, pages } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    const [row] = await t.server.db.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facility.facilityId],
    );
    expect(text).toContain('MAC matrix · Line 1');
    expect(text).toContain(`Facility: ${row!.name}`);
    // A → B: 1,000 mg by the general limit; B → A: 250 mg by PDE over 130,000 sqcm.
    expect(text).toContain('1,000 mg');
    expect(text).toContain('250 mg');
    expect(text).toContain('0.001923 mg/cm²');
    expect(text).toContain('A = 130,000 cm²');
    expect(text).toMatch(/PDE|HBEL/);
    expect(text).not.toContain('C -> D');
    expect(text).toContain('B -> A');
    expect(text).toContain(`Page 1 of ${pages}`);
  });

  it('prints the nitrosamine limits with the acceptable intake as the HBEL', async () => {
    const res = await download(`/macMatrix/production/${facility.line1}/nitrosamine`);
    expect(res.status).toBe(200);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('Nitrosamine limits · Line 1');
    expect(text).toContain('96 ng/day');
    expect(text).toContain('Nitrosamine policy');
    // A -> B: 96 ng × 100 kg / 400 mg = 24 mg, below 10 ppm × 100 kg = 1,000 mg.
    expect(text).toContain('24 mg');
  });

  it('describes every download in the OpenAPI document', async () => {
    const doc = await t.server.request<{
      paths: Record<string, { get?: { summary?: string; description?: string } }>;
    }>('GET', '/api/docs/json');
    const F = '/api/v2/plans/{plan}/facilities/{facility}';
    for (const path of [
      `${F}/mac-matrix/export`,
      `${F}/mac-matrix/pairs`,
      `${F}/macMatrix/production/{id}`,
      `${F}/macMatrix/production/{id}/nitrosamine`,
    ]) {
      expect(doc.body.paths[path]?.get?.summary, path).toBeTruthy();
      expect(doc.body.paths[path]?.get?.description, path).toBeTruthy();
    }
  });

  it('answers 404 for an unknown production and 422 for a malformed id', async () => {
    for (const path of [
      '/macMatrix/production/999999',
      '/macMatrix/production/999999/nitrosamine',
    ]) {
      const res = await download(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ errName: 'NotFoundError' });
    }
    expect((await download('/macMatrix/production/abc')).status).toBe(422);
  });
});
