import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { changeImpact } from '#core/assessments/change-impact.ts';
import { criterionOnlyImpact } from '#core/assessments/two-product-impact.ts';
import { applyWhatIf } from '#core/limits/limits.what-if.ts';
import { addProductEdit, pdeEdit, twoProductFacility } from '#core/limits/two-product-facility.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import type { ImpactExportMeta } from './impact-export.ts';
import { renderImpactPdf } from './impact-pdf.ts';
import { renderImpactXlsx } from './impact-xlsx.ts';

/*
 * Tablet A (PDE 1 → 0.5 ug) before Syrup B: A→B 83.33 → 41.67 mg (on E2, 80,000 sqcm), and a
 * new product C on E2: pairs A→C, B→C, C→A, C→B.
 */
function impact() {
  const before = twoProductFacility();
  const after = applyWhatIf(before, [
    pdeEdit('a1', 0.5),
    addProductEdit('C', 'b1', 50, 1000, ['E2']),
  ]);
  const result = changeImpact(before, after, { trains: [], methods: [], results: [] });
  const items = result.items.map((item) =>
    item.kind === 'limitsMoved'
      ? {
          ...item,
          decision: {
            decision: 'verification' as const,
            justification: 'Verify the swab limit on E2 in the next campaign',
            decidedBy: 7,
            decidedByName: 'Quinn Reviewer',
            decidedAt: '2026-11-24T09:30:00Z',
          },
        }
      : item,
  );
  return { ...result, items };
}

const meta: ImpactExportMeta = {
  facilityName: 'North plant',
  number: 'CA-0003',
  title: 'Lower PDE of a1',
  changeType: 'HBEL/dose/batch change',
  evaluatedAt: '2026-11-24T09:00:00Z',
  evaluatedByName: 'Eve Evaluator',
  changes: [
    { label: "Active 'a1': edit PDE", reason: 'New toxicology report' },
    { label: "Product 'C': create", reason: 'Launch of C' },
  ],
};

describe('impact exports', () => {
  it('the workbook has the summary, the items with their decisions, and the pairs', async () => {
    const { items, pairs, summary } = impact();
    expect(items.map((i) => i.key)).toEqual(['limitsMoved:A', 'pairsAdded:C']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      (await renderImpactXlsx(meta, items, pairs, summary)) as unknown as ArrayBuffer,
    );
    expect(wb.worksheets.map((ws) => ws.name)).toEqual(['Summary', 'Impact items', 'Pairs']);

    const summarySheet = wb.getWorksheet('Summary')!;
    const cells = summarySheet
      .getSheetValues()
      .map((row) => (Array.isArray(row) ? row.slice(1) : []));
    expect(cells).toContainEqual(['Change assessment', 'CA-0003: Lower PDE of a1']);
    expect(cells).toContainEqual(['Evaluated', '24 Nov, 2026 09:00 (UTC) by Eve Evaluator']);
    expect(cells).toContainEqual(["Active 'a1': edit PDE", 'New toxicology report']);
    expect(cells).toContainEqual(['Pairs whose limits move', 1]);
    expect(cells).toContainEqual(['Pairs added', 4]);
    expect(cells).toContainEqual(['Impact items', '2 (1 without a decision)']);

    const itemSheet = wb.getWorksheet('Impact items')!;
    const head = itemSheet.getRow(1).values as unknown[];
    expect(head).toContain('MACO before (mg)');
    expect(head).toContain('Rinse limit after (ppm)');
    const col = (name: string) => head.indexOf(name);
    const moved = itemSheet.getRow(2).values as unknown[];
    expect(moved[col('Key')]).toBe('limitsMoved:A');
    expect(moved[col('Kind')]).toBe('Limits moved');
    expect(moved[col('MACO before (mg)')]).toBeCloseTo(250 / 3, 9);
    // the lowest of A's pairs now is the new A→C: 0.5 ug × 50 kg / 1,000 mg = 25 mg
    expect(moved[col('MACO after (mg)')]).toBeCloseTo(25, 9);
    expect(moved[col('Largest change (%)')]).toBeCloseTo(-50, 9);
    expect(moved[col('Decision')]).toBe('Verification');
    expect(moved[col('Justification')]).toBe('Verify the swab limit on E2 in the next campaign');
    expect(moved[col('Decided by')]).toBe('Quinn Reviewer, 24 Nov, 2026 09:30');
    const added = itemSheet.getRow(3).values as unknown[];
    expect(added[col('Subject')]).toBe('C');
    expect(added[col('Decision')]).toBe('No decision yet');

    const pairSheet = wb.getWorksheet('Pairs')!;
    expect(pairSheet.rowCount).toBe(1 + pairs.length);
    const pairHead = pairSheet.getRow(1).values as unknown[];
    const rows = pairs.map((_, i) => pairSheet.getRow(i + 2).values as unknown[]);
    const status = pairHead.indexOf('Status');
    expect(rows.filter((r) => r[status] === 'New')).toHaveLength(4);
    const ab = rows.find((r) => r[1] === 'A' && r[2] === 'B')!;
    expect(ab[status]).toBe('Changed');
    expect(ab[pairHead.indexOf('SAL change (%)')]).toBeCloseTo(-50, 9);
    expect(ab[pairHead.indexOf('SAL after (mg/cm²)')]).toBeCloseTo(125 / 3 / 80_000, 15);
  });

  it('the PDF lists the assessment, the counts and each item with its decision', async () => {
    const { items, summary } = impact();
    const { text: raw, pages } = await readPdfText(await renderImpactPdf(meta, items, summary));
    expect(pages).toBeGreaterThanOrEqual(1);
    const text = raw.replace(/\s+/g, ' ');
    for (const expected of [
      'CA-0003 · Impact of the change',
      'North plant',
      'CA-0003: Lower PDE of a1',
      'HBEL/dose/batch change',
      '24 Nov, 2026 09:00 (UTC) by Eve Evaluator',
      "Active 'a1': edit PDE",
      'New toxicology report',
      'Pairs whose limits move',
      'Limits moved',
      '1 pair moves (largest change -50 %); lowest MACO 83.33 -> 25 mg',
      'Before: MACO 83.33 mg SAL 0.001042 mg/cm² criterion health-based After: MACO 25 mg',
      'Verification',
      'Quinn Reviewer, 24 Nov, 2026 09:30',
      'Verify the swab limit on E2 in the next campaign',
      'Pairs added',
      '4 new pairs (new product)',
      'No decision yet',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('says so when nothing moves', async () => {
    const input = twoProductFacility();
    const { items, summary } = changeImpact(input, input, { trains: [], methods: [], results: [] });
    const { text } = await readPdfText(
      await renderImpactPdf({ ...meta, changes: [] }, items, summary),
    );
    expect(text).toContain('The change moves no limit: there is nothing to decide.');
    expect(text).toContain('No changes are staged.');
  });

  it('says why no limit moves when a criterion that does not govern moves (issue 30)', async () => {
    // B's PDE 5 → 2 mg: health-based B→A 1,250,000 → 500,000 mg, under the general limit.
    const { items, pairs, summary } = criterionOnlyImpact();
    expect(items).toEqual([]);
    const why = 'Health-based 1,250,000 mg → 500,000 mg; general limit 1,000 mg still governs';
    const { text: raw } = await readPdfText(
      await renderImpactPdf(meta, items, summary, undefined, pairs),
    );
    const text = raw.replace(/\s+/g, ' ');
    expect(text).toContain('The change moves no limit: there is nothing to decide.');
    expect(text).toContain('Why the limits stay');
    expect(text).toContain(why.replace('→', '->'));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      (await renderImpactXlsx(meta, items, pairs, summary)) as unknown as ArrayBuffer,
    );
    const cells = wb
      .getWorksheet('Summary')!
      .getSheetValues()
      .map((row) => (Array.isArray(row) ? row.slice(1) : []));
    expect(cells).toContainEqual(['Pairs whose limit stays while another criterion moves', 1]);
    const pairSheet = wb.getWorksheet('Pairs')!;
    const head = pairSheet.getRow(1).values as unknown[];
    const row = pairSheet.getRow(2).values as unknown[];
    expect([row[1], row[2]]).toEqual(['B', 'A']);
    expect(row[head.indexOf('Status')]).toBe('Limit stays');
    expect(row[head.indexOf('Criterion before')]).toBe('general limit');
    expect(row[head.indexOf('Criteria before → after')]).toBe(why);
  });

  it("the PDF's data hash covers the pairs it explains", async () => {
    const { items, pairs, summary } = criterionOnlyImpact();
    const generated = { by: 'Eve Evaluator', at: new Date('2026-11-24T10:00:00Z') };
    const hashOf = async (shown: typeof pairs) => {
      const { text } = await readPdfText(
        await renderImpactPdf(meta, items, summary, generated, shown),
      );
      const hash = /Data SHA-256\s*([0-9a-f\s]{64,})/.exec(text)?.[1]?.replace(/\s+/g, '');
      expect(hash).toMatch(/^[0-9a-f]{64}/);
      return hash!.slice(0, 64);
    };
    const [pair] = pairs;
    const health = pair!.criteria!.after!.health!;
    const other = [
      {
        ...pair!,
        criteria: { ...pair!.criteria!, after: { ...pair!.criteria!.after!, health: health / 2 } },
      },
    ];
    const shown = await hashOf(pairs);
    expect(await hashOf(pairs)).toBe(shown);
    expect(await hashOf([])).not.toBe(shown);
    expect(await hashOf(other)).not.toBe(shown);
  });
});
