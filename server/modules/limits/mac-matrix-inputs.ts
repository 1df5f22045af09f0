import { unitLabel } from '#core/units/format-number.ts';
import type { LimitsInput } from '#core/limits/model.ts';

type Cell = string | number | null;

const isQuantity = (v: unknown): v is { value: number; unit: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { value?: unknown }).value === 'number' &&
  typeof (v as { unit?: unknown }).unit === 'string';

/** A policy field as field, value, unit: quantities keep their unit, switches read yes/no. */
function policyRow(field: string, value: unknown): Cell[] {
  if (isQuantity(value)) return [`Policy: ${field}`, value.value, value.unit];
  if (typeof value === 'boolean') return [`Policy: ${field}`, value ? 'yes' : 'no', null];
  if (typeof value === 'number' || typeof value === 'string')
    return [`Policy: ${field}`, value, null];
  return [`Policy: ${field}`, JSON.stringify(value), null];
}

/**
 * What a reviewer needs to reproduce an exported matrix: where and when it came from, who took
 * it, the units of every column and the cleaning limit policy the engine applied.
 */
export function macInputRows(
  input: LimitsInput,
  meta: {
    facilityName: string;
    productionName: string | null;
    exportedBy: string;
    exportedAt: Date;
    /** The moment the data and policy were read as of; the export itself when absent. */
    asOf?: string | undefined;
  },
  pairs: number,
): Cell[][] {
  return [
    ['Facility', meta.facilityName, null],
    ['Production', meta.productionName ?? 'All productions', null],
    ['Exported at (UTC)', meta.exportedAt.toISOString(), null],
    ['Exported by', meta.exportedBy, null],
    ['Data as of (UTC)', new Date(meta.asOf ?? meta.exportedAt).toISOString(), null],
    ['Products', input.products.length, null],
    ['Equipment items', input.equipment.length, null],
    ['Pairs sharing equipment', pairs, null],
    ['Unit of MACO', 'mg', 'mg'],
    ['Unit of shared area', unitLabel('sqcm'), unitLabel('sqcm')],
    ['Unit of SAL', unitLabel('mg/sqcm'), unitLabel('mg/sqcm')],
    ['Unit of swab limit', 'mg/swab', 'mg/swab'],
    ['Unit of rinse limit', 'mg/ml', 'mg/ml'],
    [
      'Swab area',
      input.sampling.swabArea?.value ?? 'not set',
      input.sampling.swabArea ? unitLabel(input.sampling.swabArea.unit) : null,
    ],
    [
      'Rinse volume',
      input.sampling.rinseVolume?.value ?? 'not set',
      input.sampling.rinseVolume?.unit ?? null,
    ],
    ['Swab sampling type', input.sampling.swabTypeName ?? 'not set', null],
    ['Swab recovery', input.sampling.swabRecoveryPercentage ?? 'not set', '%'],
    ['Rinse sampling type', input.sampling.rinseTypeName ?? 'not set', null],
    ['Rinse recovery', input.sampling.rinseRecoveryPercentage ?? 'not set', '%'],
    ...Object.entries(input.policy).map(([field, value]) => policyRow(field, value)),
  ];
}
