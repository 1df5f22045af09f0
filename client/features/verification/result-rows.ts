import { judgeResult, shown, toResultUnit } from '#core/verification/judge-result.ts';
import type {
  TCensoring,
  TJudgement,
  TResultUnit,
  TRun,
  TSampleResult,
  TSampleResultInput,
} from '#core/schemas/verification.schemas.ts';
import type { PropertyError } from '#core/errors/errors.ts';
import { parsePropertyPath } from '#client/api/property-path.ts';

/** One planned sampling location of a run, as the results form edits it. */
export type PlanRow = TRun['plan'][number];

export interface RowValues {
  censoring?: TCensoring;
  rawValue?: number | null;
  unit?: TResultUnit;
  batchNumber?: string | null;
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
  try {
    limit = row.limit === null ? null : toResultUnit(row.limit, row.limitUnit, unit);
    loq = row.loq === null ? null : toResultUnit(row.loq, row.limitUnit, unit);
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
  });
  const limitLines = [...row.limitDerivation];
  // The plan gives the limit in its own unit; the server derives it in the entered one.
  if (limit !== null && unit !== row.limitUnit)
    limitLines.push(`In ${unit}: ${shown(limit)} ${unit}`);
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

/**
 * The server's '<key>.<field>' problems as antd field entries of the form ('rows', key, field);
 * the ones no row carries (a key the form does not have) are returned apart for a notice.
 */
export function rowFieldErrors(
  errors: PropertyError[] | undefined,
  keys: ReadonlySet<string>,
): { fields: { name: string[]; errors: string[] }[]; rest: string[] } {
  const byName = new Map<string, { name: string[]; errors: string[] }>();
  const rest: string[] = [];
  for (const item of errors ?? []) {
    const [first = '', second] = parsePropertyPath(item.property);
    const key = String(first);
    const field = typeof second === 'string' ? second : '';
    const messages = Object.values(item.constraints ?? {});
    if (!keys.has(key) || !field) {
      rest.push(...messages.map((m) => `${item.property}: ${m}`));
      continue;
    }
    const id = `${key}.${field}`;
    const entry = byName.get(id) ?? { name: ['rows', key, field], errors: [] };
    entry.errors.push(...messages);
    byName.set(id, entry);
  }
  return { fields: [...byName.values()], rest };
}
