import type { FieldDef } from '../../../core/entities/field.ts';

export interface QuantityValue {
  value: number;
  unit: string;
}

export function isQuantity(value: unknown): value is QuantityValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as QuantityValue).value === 'number' &&
    typeof (value as QuantityValue).unit === 'string'
  );
}

/**
 * Four significant digits, as a reviewer reads a limit, without trailing zeros; very small and
 * very large values in scientific notation so 0.000000396 never shows as 0.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  // Above four digits every integer digit is kept: 210000 sqcm, not 2.1e5.
  if (magnitude >= 1e4 && magnitude < 1e15) return Math.round(value).toString();
  if (magnitude >= 1e-4) return Number(value.toPrecision(4)).toString();
  return value.toExponential(3).replace(/\.?0+e/, 'e');
}

/** A quantity as "value unit" (spec §3 units as they are written), or '' when there is none. */
export function formatQuantity(value: unknown): string {
  if (!isQuantity(value)) return '';
  return `${formatNumber(value.value)} ${value.unit}`;
}

/** Names of referenced records, by id: what a reference shows instead of a number. */
export type NameLookup = (entityKey: string, id: number) => string;

/** One field's value as text for a table cell or a summary. */
export function formatFieldValue(field: FieldDef, value: unknown, nameOf: NameLookup): string {
  if (value === null || value === undefined) return '';
  switch (field.kind) {
    case 'text':
    case 'longText':
    case 'enum':
      return String(value);
    case 'number':
    case 'integer':
      return typeof value === 'number' ? formatNumber(value) : String(value);
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'quantity':
      return formatQuantity(value);
    case 'reference': {
      const ids = Array.isArray(value) ? value : [value];
      return ids
        .filter((id): id is number => typeof id === 'number')
        .map((id) => nameOf(field.entity, id))
        .join(', ');
    }
    case 'list':
      if (!Array.isArray(value)) return '';
      return value
        .map((row: unknown) =>
          field.of
            .map((sub) =>
              formatFieldValue(sub, (row as Record<string, unknown> | null)?.[sub.name], nameOf),
            )
            .filter(Boolean)
            .join(' '),
        )
        .join('; ');
    case 'json':
      return JSON.stringify(value);
  }
}
