import type { FieldDef } from '#core/entities/field.ts';
import {
  DEFAULT_SIGNIFICANT_DIGITS,
  formatNumber,
  formatQuantity as formatValueAndUnit,
} from '#core/units/format-number.ts';

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

/** A stored quantity as "value unit" ('0.0003968 mg/cm²'), or '' when there is none. */
export function formatQuantity(value: unknown, digits = DEFAULT_SIGNIFICANT_DIGITS): string {
  if (!isQuantity(value)) return '';
  return formatValueAndUnit(value.value, value.unit, digits);
}

/** Names of referenced records, by id: what a reference shows instead of a number. */
export type NameLookup = (entityKey: string, id: number) => string;

/** One field's value as text for a table cell or a summary, numbers at `digits` significant digits. */
export function formatFieldValue(
  field: FieldDef,
  value: unknown,
  nameOf: NameLookup,
  digits = DEFAULT_SIGNIFICANT_DIGITS,
): string {
  if (value === null || value === undefined) return '';
  switch (field.kind) {
    case 'text':
      return field.valueLabels?.[String(value)] ?? String(value);
    case 'longText':
      return String(value);
    case 'enum':
      return field.optionLabels?.[String(value)] ?? String(value);
    case 'number':
    case 'integer':
      return typeof value === 'number' ? formatNumber(value, digits) : String(value);
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'quantity':
      return formatQuantity(value, digits);
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
              formatFieldValue(
                sub,
                (row as Record<string, unknown> | null)?.[sub.name],
                nameOf,
                digits,
              ),
            )
            .filter(Boolean)
            .join(' '),
        )
        .join('; ');
    case 'json':
      return JSON.stringify(value);
  }
}
