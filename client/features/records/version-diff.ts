import type { TRecordVersion } from '../../../core/schemas/versions.schemas.ts';
import { deepEqual } from '../policies/document-changes.ts';

/** Bookkeeping columns every version carries; a difference in them is not a change of content. */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'updatedBy', 'createdAt', 'createdBy']);

export interface FieldDifference {
  field: string;
  before: unknown;
  after: unknown;
}

/** The fields whose value differs between two versions, in a stable order. */
export function versionDifferences(before: TRecordVersion, after: TRecordVersion) {
  const fields = new Set([...Object.keys(before.values), ...Object.keys(after.values)]);
  const differences: FieldDifference[] = [];
  for (const field of [...fields].sort()) {
    if (BOOKKEEPING.has(field)) continue;
    const a = before.values[field];
    const b = after.values[field];
    if (!deepEqual(a ?? null, b ?? null)) differences.push({ field, before: a, after: b });
  }
  if (before.archived !== after.archived) {
    differences.push({ field: 'archived', before: before.archived, after: after.archived });
  }
  return differences;
}

/** A value as a cell shows it: '—' for nothing, JSON for lists and objects. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
