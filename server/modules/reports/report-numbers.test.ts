import { beforeAll, describe, expect, it } from 'vitest';
import { excelNumberFormat, formatQuantity } from '#core/units/format-number.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/*
 * Issue 30: the numbers of limit PDFs and workbooks read as the screens show them (significant
 * digits, thousands separators, units as people write them, never e-notation), and a workbook
 * cell keeps the full value under a number format that rounds it the same way.
 */
const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});
const { generate, pdfOf, xlsxOf } = reportKit(t, () => facility.F);

/** What no number meant for people may look like: e-notation, ASCII units, 10+ decimals. */
function expectReadableNumbers(text: string) {
  // Whole words only: a SHA-256 in the hashes page holds digits and 'e' side by side.
  expect(text).not.toMatch(/(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+(?!\w)/i);
  expect(text).not.toMatch(/\d\.\d{10,}/);
  expect(text).not.toMatch(/\bsqcm\b|mg\/sqcm/);
}

async function setDigits(significantDigits: number) {
  const read = await t.call('GET', `${facility.F}/date-time-settings`);
  const { version, ...settings } = read.body.dateTimeSettings as TestBody;
  if (settings.significantDigits === significantDigits) return;
  const res = await t.call('POST', `${facility.F}/date-time-settings`, {
    dateTimeSettings: { ...settings, significantDigits },
    version,
    reason: `Numbers at ${significantDigits} significant digits`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('An equipment limits report', () => {
  it('prints rounded limits and keeps full values in its workbook, at the facility’s digits', async () => {
    const live = (await t.call('GET', `${facility.F}/limits/equipment`)).body;
    const e1 = (live.equipment as TestBody[]).find((e) => e.id === 'E1')!;
    // 250 mg over 130,000 cm²: 0.0019230769… mg/cm².
    const sal = e1.sal.value as number;
    expect(String(sal).length).toBeGreaterThan(10);

    for (const digits of [4, 6]) {
      await setDigits(digits);
      const report = await generate({ kind: 'equipment-limits' });
      const pdf = await pdfOf(`/reports/equipment-limits/${report.id}/pdf`);
      // A narrow column wraps a unit after its slash.
      const text = pdf.text.replaceAll('/ ', '/');
      expect(text).toContain(formatQuantity(sal, 'mg/sqcm', digits));
      expect(text).toContain('Lowest SAL (mg/cm²)');
      expectReadableNumbers(text);

      const { sheets, formats } = await xlsxOf(`/reports/equipment-limits/${report.id}/xlsx`);
      const [header, ...rows] = sheets.get('Equipment limits')!;
      const column = header!.indexOf('Lowest SAL (mg/cm²)');
      const row = rows.findIndex((r) => r[0] === 'E1');
      // The cell holds the value itself; its format shows the digits the PDF prints.
      expect(rows[row]![column]).toBe(sal);
      const numFmt = formats.get('Equipment limits')![row + 1]![column];
      expect(numFmt).toBe(excelNumberFormat(sal, digits));
      const decimals = formatQuantity(sal, 'mg/sqcm', digits).split(' ')[0]!.split('.')[1]!;
      expect(numFmt).toBe(`#,##0.${'0'.repeat(decimals.length)}`);
    }
    await setDigits(4);
  });
});

describe('A production’s limits PDF and workbook', () => {
  it('show inputs, limits and areas rounded, with separators and cm², never e-notation', async () => {
    const report = await generate({ kind: 'production-limits', productionId: facility.line1 });
    const pdf = await pdfOf(`/reports/production-limits/${report.id}/pdf`);
    const text = pdf.text.replaceAll('/ ', '/');
    expectReadableNumbers(text);
    // E1's 12.5 m² and E2's 5,000 cm² shared by A and B; Beta's PDE of 1 µg in mg/day.
    expect(text).toContain('A = 130,000 cm²');
    expect(text).toContain('MBS (minimum batch size of next (A)) = 50 kg = 50,000,000 mg');
    expect(text).toContain('(PDE of Beta) = 1 µg = 0.001 mg/day');
    const pairs = (await t.call('GET', `${facility.F}/mac-matrix?productionId=${facility.line1}`))
      .body.pairs as TestBody[];
    const ba = pairs.find((p) => p.previous === 'B' && p.next === 'A')!;
    expect(text).toContain(`= ${formatQuantity(ba.sal.value as number, 'mg/sqcm')}`);

    const { sheets, formats } = await xlsxOf(`/reports/production-limits/${report.id}/xlsx`);
    const [header, ...rows] = sheets.get('Pairs')!;
    const salColumn = header!.indexOf('SAL (mg/cm²)');
    const areaColumn = header!.indexOf('Shared area (cm²)');
    const row = rows.findIndex((r) => r[0] === 'B' && r[1] === 'A');
    expect(rows[row]![salColumn]).toBe(ba.sal.value);
    expect(formats.get('Pairs')![row + 1]![salColumn]).toBe(
      excelNumberFormat(ba.sal.value as number),
    );
    expect(rows[row]![areaColumn]).toBe(130_000);
    expect(formats.get('Pairs')![row + 1]![areaColumn]).toBe('#,##0');
  });
});
