import type { WhatIfEdit } from '#core/limits/limits.what-if.ts';

/** A limit for the what-if table: 4 significant digits, or a dash for none. */
export function formatLimit(value: number | null): string {
  if (value === null) return '–';
  return value.toLocaleString('en-US', { maximumSignificantDigits: 4 });
}

/** A percent change, signed, one decimal: "-50.0 %". */
export function formatChange(change: number | null): string {
  if (change === null) return '–';
  return `${change > 0 ? '+' : ''}${change.toFixed(1)} %`;
}

/** One line per pending change, for the list above the results. */
export function describeEdit(edit: WhatIfEdit): string {
  switch (edit.kind) {
    case 'pde':
      return `PDE of ${edit.active} → ${edit.value.value} ${edit.value.unit}`;
    case 'minBatchSize':
      return `Minimum batch size of ${edit.product} → ${edit.value.value} ${edit.value.unit}`;
    case 'maxDailyDose':
      return `Largest daily dose of ${edit.product} → ${edit.value.value} ${edit.value.unit}`;
    case 'surfaceArea':
      return `Surface area of ${edit.equipment} → ${edit.value.value} ${edit.value.unit}`;
    case 'archiveActive':
      return `Archive active ${edit.active}`;
    case 'archiveEquipment':
      return `Archive equipment ${edit.equipment}`;
    case 'archiveProduct':
      return `Archive product ${edit.product}`;
    case 'addProduct':
      return `New product ${edit.product} (${edit.active}; batch ${edit.minBatchSize.value} ${edit.minBatchSize.unit}, daily dose ${edit.maxDailyDose.value} ${edit.maxDailyDose.unit}; on ${edit.equipment.join(', ') || 'no equipment'})`;
  }
}
