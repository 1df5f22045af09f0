import { judgeResult, shown, toResultUnit } from '#core/verification/judge-result.ts';
import { unitLabel } from '#core/units/format-number.ts';
import type {
  TCensoring,
  TJudgement,
  TResultUnit,
  TRun,
  TSampleResult,
  TSampleResultInput,
} from '#core/schemas/verification.schemas.ts';
import type { PropertyError } from '#core/errors/errors.ts';
import { parsePropertyPath, propertyInWords } from '#core/errors/property-path.ts';
import { sampleTypeLabel } from '#core/labels/enum-labels.ts';

/** One planned sampling location of a run, as the results form edits it. */
export type PlanRow = TRun['plan'][number];

export interface RowValues {
  censoring?: TCensoring;
  rawValue?: number | null;
  unit?: TResultUnit;
  batchNumber?: string | null;
}

/** A planned row or a result as its card and dialogs title it: "Blade (Swab)". */
export function sampleLabel(row: Pick<PlanRow, 'samplingLocationName' | 'sampleType'>): string {
  return `${row.samplingLocationName} (${sampleTypeLabel(row.sampleType)})`;
}

/** The row's key: SampleChangesError names a row's problems by it ('<key>.<field>'). */
export function rowKey(row: Pick<PlanRow, 'samplingLocationId' | 'sampleType'>): string {
  return `loc${row.samplingLocationId}-${row.sampleType}`;
}

/** The counted result of a planned row: the newest not superseded by a retest or re-swab. */
export function currentResult(run: TRun, row: PlanRow): TSampleResult | undefined {
  return run.results.find(
    (result) =>
      result.supersededBy === null &&
      result.samplingLocationId === row.samplingLocationId &&
      result.sampleType === row.sampleType,
  );
}

/**
 * The browser's preview of a judgement: judgeResult with the plan row's limit, recovery and LOQ
 * (converted to the entered unit), as the server will judge it, its derivation led by how the
 * limit came from the snapshot as the server's is; the server's judgement is what gets saved
 * and shown after saving.
 */
export function previewJudgement(row: PlanRow, values: RowValues): TJudgement | null {
  const { censoring, rawValue, unit } = values;
  if (!censoring || rawValue === undefined || rawValue === null || !unit) return null;
  let limit: number | null;
  let loq: number | null;
  let lod: number | null;
  try {
    const inUnit = (value: number | null) =>
      value === null ? null : toResultUnit(value, row.limitUnit, unit);
    limit = inUnit(row.limit);
    loq = inUnit(row.loq);
    lod = inUnit(row.lod);
  } catch {
    // A swab amount entered on a rinse row (or the reverse): the server refuses it with a message.
    return null;
  }
  const judgement = judgeResult({
    censoring,
    rawValue,
    unit,
    recovery: row.recovery,
    recoverySource: row.recoverySource,
    limit,
    loq,
    lod,
    detectionUnconvertible: row.detectionUnconvertible,
  });
  const limitLines = [...row.limitDerivation];
  // The plan gives the limit in its own unit; the server derives it in the entered one.
  if (limit !== null && unit !== row.limitUnit)
    limitLines.push(`In ${unitLabel(unit)}: ${shown(limit)} ${unitLabel(unit)}`);
  return { ...judgement, derivation: [...limitLines, ...judgement.derivation] };
}

/** The body of POST {F}/runs/{id}/results: every row with a value entered. */
export function filledResults(
  plan: PlanRow[],
  values: Record<string, RowValues | undefined>,
): TSampleResultInput[] {
  return plan.flatMap((row) => {
    const key = rowKey(row);
    const v = values[key];
    if (!v || v.rawValue === undefined || v.rawValue === null || !v.censoring || !v.unit) return [];
    return [
      {
        key,
        samplingLocationId: row.samplingLocationId,
        sampleType: row.sampleType,
        analyticalMethodId: row.analyticalMethodId,
        censoring: v.censoring,
        rawValue: v.rawValue,
        unit: v.unit,
        batchNumber: v.batchNumber?.trim() ? v.batchNumber.trim() : null,
      },
    ];
  });
}

/** A planned row as a reader names it: "Swab at Blade (Mixer)". */
export function rowName(
  row: Pick<PlanRow, 'sampleType' | 'samplingLocationName' | 'equipmentName'>,
) {
  const type = sampleTypeLabel(row.sampleType);
  return `${type} at ${row.samplingLocationName} (${row.equipmentName})`;
}

/** A result's fields as the form labels them, where the name says something else. */
const RESULT_FIELD_WORDS = {
  label: (name: string) => (name === 'batchNumber' ? 'sample number' : undefined),
};

/**
 * A problem no field of the form carries, in words: the row by its location, the field by its
 * name ("Swab at Blade (Mixer), sample number: …"), never the server's '<key>.<field>'.
 */
function problemLine(property: string, message: string, names: ReadonlyMap<string, string>) {
  const [first = '', ...rest] = parsePropertyPath(property);
  const row = names.get(String(first)) ?? unplannedRow(String(first));
  if (row === undefined)
    return property ? `${capitalised(propertyInWords(property))}: ${message}` : message;
  return rest.length > 0
    ? `${row}, ${propertyInWords(rest, RESULT_FIELD_WORDS)}: ${message}`
    : `${row}: ${message}`;
}

/** A row key of a location this run's plan does not have (it changed since the form opened). */
function unplannedRow(key: string): string | undefined {
  const type = /^loc\d+-(swab|rinse)$/.exec(key)?.[1];
  if (!type) return undefined;
  return `${type === 'swab' ? 'Swab' : 'Rinse'} at a location no longer in this run's plan`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The server's '<key>.<field>' problems as antd field entries of the form ('rows', key, field);
 * the ones no row's field carries are returned apart, in words, for a notice.
 */
export function rowFieldErrors(
  errors: PropertyError[] | undefined,
  plan: readonly PlanRow[],
): { fields: { name: string[]; errors: string[] }[]; rest: string[] } {
  const names = new Map(plan.map((row) => [rowKey(row), rowName(row)]));
  const byName = new Map<string, { name: string[]; errors: string[] }>();
  const rest: string[] = [];
  for (const item of errors ?? []) {
    const [first = '', second] = parsePropertyPath(item.property);
    const key = String(first);
    const field = typeof second === 'string' ? second : '';
    const messages = Object.values(item.constraints ?? {});
    if (!names.has(key) || !field) {
      rest.push(...messages.map((m) => problemLine(item.property, m, names)));
      continue;
    }
    const id = `${key}.${field}`;
    const entry = byName.get(id) ?? { name: ['rows', key, field], errors: [] };
    entry.errors.push(...messages);
    byName.set(id, entry);
  }
  return { fields: [...byName.values()], rest };
}
