import { auditActionLabel, auditDomainLabel } from '../audit/audit-format.ts';
import type { TCell, TReportColumn } from '../schemas/custom-reports.schemas.ts';
import { unitLabel } from '../units/format-number.ts';

/*
 * A custom report's cells and headers as people read them (issue 30), alike on the screen's
 * preview and in the xlsx: an option that is a code by its words, an audit entry's domain and
 * action by their labels, units as people write them. Filters still compare the stored values.
 */

/** Columns whose codes are worded by a function of their own, by `source.column`. */
const WORDED_BY: Readonly<Record<string, (code: string) => string>> = {
  'auditEntries.domain': auditDomainLabel,
  'auditEntries.action': auditActionLabel,
};

/** A cell's text value in words; numbers, dates and booleans are left to their formatters. */
export function reportCellWords(
  source: string,
  column: Pick<TReportColumn, 'key' | 'type' | 'optionLabels'>,
  value: TCell,
): TCell {
  if (typeof value !== 'string') return value;
  if (column.type === 'enum') return column.optionLabels?.[value] ?? value;
  return WORDED_BY[`${source}.${column.key}`]?.(value) ?? value;
}

/** A column's header: its label and, where it has one, its unit ('Surface area (cm²)'). */
export function reportColumnHeader(column: { label: string; unit: string | null }): string {
  return column.unit ? `${column.label} (${unitLabel(column.unit)})` : column.label;
}

/** An option of a filter as the form offers it: its words, Yes and No for a yes/no column. */
export function reportOptionLabel(
  column: Pick<TReportColumn, 'type' | 'optionLabels'>,
  option: string,
): string {
  if (column.type === 'boolean')
    return option === 'true' ? 'Yes' : option === 'false' ? 'No' : option;
  return column.optionLabels?.[option] ?? option;
}
