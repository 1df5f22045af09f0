import type { WhatIfEdit } from '#core/limits/limits.what-if.ts';
import { DEFAULT_SIGNIFICANT_DIGITS, formatNumber, unitLabel } from '#core/units/format-number.ts';

/** A limit for the what-if table: the facility's significant digits, or a dash for none. */
export function formatLimit(value: number | null, digits = DEFAULT_SIGNIFICANT_DIGITS): string {
  if (value === null) return '–';
  return formatNumber(value, digits);
}

/** A value the user typed: every digit of it kept, the unit as people write it. */
const typed = (q: { value: number; unit: string }) =>
  `${formatNumber(q.value, 15)} ${unitLabel(q.unit)}`;

/** A percent change, signed, one decimal: "-50.0 %". */
export function formatChange(change: number | null): string {
  if (change === null) return '–';
  return `${change > 0 ? '+' : ''}${change.toFixed(1)} %`;
}

/** One line per pending change, for the list above the results. */
export function describeEdit(edit: WhatIfEdit): string {
  switch (edit.kind) {
    case 'pde':
      return `PDE of ${edit.active} → ${typed(edit.value)}`;
    case 'minBatchSize':
      return `Minimum batch size of ${edit.product} → ${typed(edit.value)}`;
    case 'maxDailyDose':
      return `Largest daily dose of ${edit.product} → ${typed(edit.value)}`;
    case 'surfaceArea':
      return `Surface area of ${edit.equipment} → ${typed(edit.value)}`;
    case 'archiveActive':
      return `Archive active ${edit.active}`;
    case 'archiveEquipment':
      return `Archive equipment ${edit.equipment}`;
    case 'archiveProduct':
      return `Archive product ${edit.product}`;
    case 'addProduct':
      return `New product ${edit.product} (${edit.active}; batch ${typed(edit.minBatchSize)}, daily dose ${typed(edit.maxDailyDose)}; on ${edit.equipment.join(', ') || 'no equipment'})`;
  }
}
