import { PassThrough } from 'node:stream';
import { writeMacMatrixXlsx } from '#server/modules/limits/mac-matrix-xlsx.ts';
import type { MacPdfData } from '#server/modules/limits/mac-production-pdf.ts';
import type { ReportMeta } from '../report-kinds.ts';

/**
 * 'Production Data.xlsx' of a production-limits report of one production: the MAC matrix
 * workbook of `mac-matrix/export` (MAC Matrix, Pairs, Inputs) of the production the report
 * names. A report of every production has the workbook of kinds/production-limits.ts instead.
 */
export async function productionDataXlsx(
  production: MacPdfData,
  meta: ReportMeta,
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.once('end', resolve);
    out.once('error', reject);
  });
  await writeMacMatrixXlsx(
    production.input,
    {
      facilityName: production.facilityName,
      productionName: production.productionName,
      exportedBy: meta.generatedBy,
      exportedAt: new Date(meta.asOf),
      uncomputable: production.uncomputable,
      significantDigits: meta.significantDigits,
    },
    out,
    () => false,
  );
  await ended;
  return Buffer.concat(chunks);
}
