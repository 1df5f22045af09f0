import ExcelJS from 'exceljs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { defaultPolicy } from '#core/limits/policy.ts';
import { writeMacMatrixXlsx } from './mac-matrix-xlsx.ts';

/** `n` products on one shared item: n × (n − 1) pairs, enough to fill the zip's buffers. */
function sharedLine(n: number): LimitsInput {
  const products = Array.from({ length: n }, (_v, i) => ({
    id: `P${i}`,
    minBatchSize: { value: 50 + i, unit: 'kg' },
    maxDailyDose: { value: 100 + i, unit: 'mg' },
    actives: [{ id: `Act${i}`, pde: { value: 0.01 * (i + 1), unit: 'mg' } }],
  })) as LimitsInput['products'];
  return {
    policy: defaultPolicy('Chemical'),
    products,
    equipment: [{ id: 'Mixer', surfaceArea: { value: 2, unit: 'sqm' } }],
    trains: Object.fromEntries(products.map((p) => [p.id, ['Mixer']])),
    sampling: {},
  };
}

/** A reader that takes one small chunk every few milliseconds, as a slow network would. */
function slowReader(chunks: Buffer[], delayMs: number): Writable {
  return new Writable({
    highWaterMark: 16_384,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      setTimeout(done, delayMs);
    },
  });
}

const meta = {
  facilityName: 'Test plant',
  productionName: null,
  exportedBy: 'Tester',
  exportedAt: new Date('2026-11-22T10:00:00Z'),
};

describe('writeMacMatrixXlsx', () => {
  it('completes a large matrix for a slow reader, with every pair in it', async () => {
    const input = sharedLine(120);
    const chunks: Buffer[] = [];
    const out = slowReader(chunks, 1);
    const finished = new Promise((resolve) => out.on('finish', resolve));
    const pairs = await writeMacMatrixXlsx(input, meta, out, () => out.destroyed);
    await finished;
    expect(pairs).toBe(120 * 119);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Pairs')!.rowCount).toBe(1 + 120 * 119);
    const engine = contractDocument(input);
    const last = engine.pairs!.at(-1)!;
    const row = wb.getWorksheet('MAC Matrix')!.getRow(121).values as unknown[];
    expect(row[1]).toBe(last.previous);
    expect(row[120]).toBeCloseTo(last.maco!.value, 12);
  }, 120_000);

  it('stops, and does not hang, when the reader goes away', async () => {
    let received = 0;
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        // Gone after the first bytes, as a closed browser tab would be.
        this.destroy();
        done();
      },
    });
    const pairs = await writeMacMatrixXlsx(sharedLine(150), meta, out, () => out.destroyed);
    expect(out.destroyed).toBe(true);
    expect(received).toBeGreaterThan(0);
    expect(pairs).toBeLessThanOrEqual(150 * 149);
  }, 120_000);
});
