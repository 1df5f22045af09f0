import { unitLabel } from '#core/units/format-number.ts';
import { labelFromName, lowerLabel } from '#core/entities/labels.ts';
import type { LimitsInput } from '#core/limits/model.ts';

type Cell = string | number | Date | null;

/** Domain abbreviations a field name writes in lower case ('arl', 'showSar'). */
const ABBREVIATIONS = new Set([
  'arl',
  'sal',
  'sar',
  'maco',
  'ld50',
  'pde',
  'ade',
  'loq',
  'lod',
  'mbs',
  'mdd',
]);

/** A policy field's path in words: ['reporting', 'swab', 'showSar'] → 'Reporting · swab · show SAR'. */
function policyLabel(path: readonly string[]): string {
  const words = path.map((part) =>
    labelFromName(part)
      .split(' ')
      .map((w) => (ABBREVIATIONS.has(w.toLowerCase()) ? w.toUpperCase() : w))
      .join(' '),
  );
  return `Policy: ${words.map((w, i) => (i === 0 ? w : lowerLabel(w))).join(' · ')}`;
}

const isQuantity = (v: unknown): v is { value: number; unit: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { value?: unknown }).value === 'number' &&
  typeof (v as { unit?: unknown }).unit === 'string';

/**
 * A policy field as field, value, unit: quantities keep their unit, switches read yes/no, and a
 * group of settings one row per setting (never JSON: issue 30).
 */
function policyRows(path: readonly string[], value: unknown): Cell[][] {
  const label = policyLabel(path);
  if (isQuantity(value)) return [[label, value.value, value.unit]];
  if (typeof value === 'boolean') return [[label, value ? 'yes' : 'no', null]];
  if (typeof value === 'number') return [[label, value, null]];
  if (typeof value === 'string')
    return [[label, /[a-z][A-Z]/.test(value) ? labelFromName(value) : value, null]];
  if (value === null || value === undefined) return [[label, 'not set', null]];
  if (Array.isArray(value)) return [[label, value.map(String).join(', '), null]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    policyRows([...path, key], inner),
  );
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
    // Date cells, not ISO strings: a reader's Excel shows them as dates and times.
    ['Exported at (UTC)', meta.exportedAt, null],
    ['Exported by', meta.exportedBy, null],
    ['Data as of (UTC)', new Date(meta.asOf ?? meta.exportedAt), null],
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
    ...Object.entries(input.policy).flatMap(([field, value]) => policyRows([field], value)),
  ];
}
