import type { TRecordVersion } from '#core/schemas/versions.schemas.ts';
import { deepEqual } from '../policies/document-changes.ts';

/** Bookkeeping columns every version carries; a difference in them is not a change of content. */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'updatedBy', 'createdAt', 'createdBy']);

export interface FieldDifference {
  field: string;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A record's values by field path: nested objects (a policy inside its read, a quantity) are
 * followed to their fields ('policy.arl.value'); lists stay whole.
 */
export function flattenValues(values: Record<string, unknown>, prefix = '') {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) Object.assign(flat, flattenValues(value, path));
    else flat[path] = value;
  }
  return flat;
}

/** The fields whose value differs between two versions, in a stable order. */
export function versionDifferences(before: TRecordVersion, after: TRecordVersion) {
  const valuesA = flattenValues(before.values);
  const valuesB = flattenValues(after.values);
  const fields = new Set([...Object.keys(valuesA), ...Object.keys(valuesB)]);
  const differences: FieldDifference[] = [];
  for (const field of [...fields].sort()) {
    if (BOOKKEEPING.has(field)) continue;
    const a = valuesA[field];
    const b = valuesB[field];
    if (!deepEqual(a ?? null, b ?? null)) differences.push({ field, before: a, after: b });
  }
  if (before.archived !== after.archived) {
    differences.push({ field: 'archived', before: before.archived, after: after.archived });
  }
  return differences;
}

/** A value as a cell shows it: '—' for nothing, a list of plain values joined, JSON otherwise. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value) && value.length === 0) return '—';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) {
    return value.join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
