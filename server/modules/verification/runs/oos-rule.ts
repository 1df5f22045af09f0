import { AppError, type PropertyError } from '#core/errors/errors.ts';
import type { TSampleResultInput } from '#core/schemas/verification.schemas.ts';
import {
  CORRECTION_NOT_ENOUGH,
  correctionSetsAside,
  repeatProblems,
  type Judged,
} from '#core/verification/oos-rule.ts';
import type { Queryable } from '#server/db/db.ts';
import { verificationSettings } from '../statistics/verification-settings.ts';
import { investigationNumber } from './investigations.read.ts';

/*
 * The out-of-specification rule on repeats and corrections, on the facts the database holds
 * (the rule itself: core/verification/oos-rule.ts, FDA OOS guidance 2006/2022). A failing
 * result (or one above the action level, where the facility says so) is set aside by a retest or
 * re-swab only once QA approved an investigation of it with an assignable laboratory cause;
 * repeats of other results keep their free reason. Microbial results follow the same rule
 * through the same record: Fail is failing, and the facility's "above the action level" reads,
 * for them, the Alert of their pinned microbial policy; `actionPercent` is a chemical level.
 */

export {
  CORRECTION_NOT_ENOUGH,
  NEEDS_INVESTIGATION,
  RETEST_BY_OTHER_ANALYST,
  isOutOfSpecification,
  type Judged,
} from '#core/verification/oos-rule.ts';

/** The results an investigation names: the table, and the investigation's column naming it. */
export type ResultTable = 'sample_results' | 'microbial_results';
export const INVESTIGATED_BY: Record<ResultTable, 'result_id' | 'microbial_result_id'> = {
  sample_results: 'result_id',
  microbial_results: 'microbial_result_id',
};

interface OriginalFacts {
  id: number;
  passed: boolean | null;
  percent_of_limit: number | null;
  microbial: 'Pass' | 'Alert' | 'Fail' | null;
  alert_percent: number | null;
  created_by: number | null;
  invalidated_by_investigation: number | null;
  investigation_seq: number | null;
  investigation_outcome: string | null;
  investigation_status: string | null;
  retests: number;
}

/** The rule's view of a row that carries both shapes' columns (one of them null). */
export const judgedOf = (row: {
  passed: boolean | null;
  percent_of_limit: number | null;
  microbial: 'Pass' | 'Alert' | 'Fail' | null;
}): Judged =>
  row.microbial === null
    ? { passed: row.passed, percent_of_limit: row.percent_of_limit }
    : { microbial: row.microbial };

async function factsOf(
  q: Queryable,
  facilityId: number,
  table: ResultTable,
  ids: number[],
): Promise<Map<number, OriginalFacts>> {
  if (ids.length === 0) return new Map();
  const judged =
    table === 'microbial_results'
      ? `null::boolean as passed, r.percent_of_limit, r.outcome as microbial,
         (r.judgement->>'alertLevelPercentage')::float8 as alert_percent`
      : 'r.passed, r.percent_of_limit, null::text as microbial, null::float8 as alert_percent';
  const rows = await q.query<OriginalFacts>(
    `with recursive chain (start, id, repeats_result_id, repeat_kind) as (
       select id, id, repeats_result_id, repeat_kind from ${table} where id = any($1::int[])
       union all
       select c.start, s.id, s.repeats_result_id, s.repeat_kind
         from chain c join ${table} s on s.id = c.repeats_result_id
     )
     select r.id, ${judged}, r.created_by, r.invalidated_by_investigation,
            i.seq as investigation_seq, i.outcome as investigation_outcome,
            (select v.status from controlled_versions v
              where v.facility_id = i.facility_id and v.document_type = 'Investigation'
                and v.document_id = i.id
              order by v.version_number desc limit 1) as investigation_status,
            (select count(*)::int from chain c where c.start = r.id and c.repeat_kind = 'retest')
              as retests
       from ${table} r left join investigations i on i.${INVESTIGATED_BY[table]} = r.id
      where r.id = any($1::int[]) and r.facility_id = $2`,
    [ids, facilityId],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The problems, by `<key>.repeats`, of rows that would set aside an out-of-specification result. */
export async function oosRepeatProblems(
  q: Queryable,
  facilityId: number,
  userId: number | null,
  rows: readonly Pick<TSampleResultInput, 'key' | 'repeats'>[],
  table: ResultTable = 'sample_results',
): Promise<PropertyError[]> {
  const repeating = rows.filter((r) => r.repeats);
  if (repeating.length === 0) return [];
  const [rule, facts] = await Promise.all([
    verificationSettings(q, facilityId),
    factsOf(
      q,
      facilityId,
      table,
      repeating.map((r) => r.repeats!.resultId),
    ),
  ]);
  const errors: PropertyError[] = [];
  for (const { key, repeats } of repeating) {
    const original = facts.get(repeats!.resultId);
    // Not a result of this facility: the run's own checks name it.
    if (!original) continue;
    const problems = repeatProblems(
      {
        judged: judgedOf(original),
        invalidated: original.invalidated_by_investigation !== null,
        investigation:
          original.investigation_seq === null
            ? null
            : {
                number: investigationNumber(original.investigation_seq),
                approved: original.investigation_status === 'Approved',
              },
        retests: original.retests,
        enteredBy: original.created_by,
        alertPercent: original.alert_percent,
      },
      rule,
      { kind: repeats!.kind, userId },
    );
    for (const message of problems)
      errors.push({ property: `${key}.repeats`, constraints: { invalid: message } });
  }
  return errors;
}

/**
 * A correction that takes an out-of-specification result out of it sets the result aside as a
 * repeat would: refused (the investigation and its retest are the way), on `rawValue`.
 */
export async function refuseCorrectionOutOfSpecification(
  q: Queryable,
  facilityId: number,
  current: Judged,
  next: Judged,
): Promise<void> {
  const rule = await verificationSettings(q, facilityId);
  if (correctionSetsAside(current, next, rule))
    throw new AppError('SampleChangesError', 'Some sample results have problems.', {
      errors: [{ property: 'rawValue', constraints: { invalid: CORRECTION_NOT_ENOUGH } }],
    });
}
