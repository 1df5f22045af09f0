import { AppError, validationError, type PropertyError } from '#core/errors/errors.ts';
import type {
  TInvestigationCreate,
  TInvestigationEdit,
} from '#core/schemas/investigation.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  ControlledRefusal,
  controlledState,
  recordEdit,
  type ControlledRef,
} from '#server/records/controlled.ts';
import { verificationSettings } from '../statistics/verification-settings.ts';
import {
  investigationNumber,
  investigationRow,
  reportedOf,
  type InvestigationRow,
} from './investigations.read.ts';
import { INVESTIGATED_BY, isOutOfSpecification, judgedOf, type ResultTable } from './oos-rule.ts';
import { auditRun, editableRun, inTransaction, type Scope } from './runs.service.ts';

/*
 * Laboratory investigations of out-of-specification results (core/verification/README.md,
 * "Out-of-specification results"; FDA OOS guidance 2006/2022, phase I): opened on a result of a
 * run that can still change, written until submitted, concluded only by a QA approval
 * (investigation-approval.ts). Each write is audited and saved as the controlled record's
 * working version in one transaction.
 */

export const investigationRef = (scope: Scope, id: number): ControlledRef => ({
  ...scope,
  documentType: 'Investigation',
  documentId: id,
});

const COLUMNS = {
  findings: 'findings',
  outcome: 'outcome',
  causeCategory: 'cause_category',
  causeDescription: 'cause_description',
  conclusion: 'conclusion',
} as const;
type Field = keyof typeof COLUMNS;

/** The content QA signs: the result as investigated and every finding. */
export const investigationContent = (row: InvestigationRow) => ({
  number: investigationNumber(row.seq),
  runId: row.run_id,
  result: {
    id: row.result_id ?? row.microbial_result_id,
    ...(row.microbial_result_id === null ? {} : { microbial: true }),
    location: row.location_name,
    reported: reportedOf(row),
    percentOfLimit: row.percent_of_limit === null ? null : Number(row.percent_of_limit),
  },
  phase: row.phase,
  outcome: row.outcome,
  causeCategory: row.cause_category,
  causeDescription: row.cause_description,
  findings: row.findings,
  conclusion: row.conclusion,
});

const titleOf = (row: InvestigationRow) =>
  `${investigationNumber(row.seq)} (${row.location_name}, ${reportedOf(row)})`;

/** A confirmed OOS has no assignable cause: naming one would contradict the outcome. */
function fieldProblems(next: { outcome: string | null; causeCategory: string | null }) {
  const errors: PropertyError[] = [];
  if (next.outcome === 'confirmed' && next.causeCategory !== null)
    errors.push({
      property: 'causeCategory',
      constraints: {
        invalid: 'A confirmed OOS has no assignable laboratory cause: clear the cause category',
      },
    });
  return errors;
}

/** What a Submit needs: an outcome, its cause where assignable, and a conclusion. */
export function submitProblems(row: InvestigationRow): PropertyError[] {
  const errors: PropertyError[] = [];
  const required = (property: string, message: string) =>
    errors.push({ property, constraints: { required: message } });
  if (!row.outcome)
    required('outcome', 'Phase I ends with an assignable laboratory cause or a confirmed OOS');
  if (row.outcome === 'assignableCause') {
    if (!row.cause_category)
      required('causeCategory', 'An assignable cause names what went wrong in the laboratory');
    if (!row.cause_description?.trim())
      required('causeDescription', 'An assignable cause is described with its evidence');
  }
  if (!row.conclusion?.trim())
    required('conclusion', 'An investigation is submitted with its conclusion');
  return [...errors, ...fieldProblems({ outcome: row.outcome, causeCategory: row.cause_category })];
}

async function saveWorkingVersion(tx: Queryable, actor: Actor, scope: Scope, id: number) {
  const row = await investigationRow(tx, scope.facilityId, id);
  await recordEdit(tx, actor, investigationRef(scope, id), investigationContent(row), titleOf(row));
}

/**
 * `POST {F}/results/{id}/investigations` (a sample result) and
 * `POST {F}/microbial-results/{id}/investigations` (a microbial result): opens phase I on an
 * out-of-specification result.
 */
export async function openInvestigation(
  db: Db,
  actor: Actor,
  scope: Scope,
  resultId: number,
  body: TInvestigationCreate,
  table: ResultTable = 'sample_results',
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const judged =
      table === 'microbial_results'
        ? 'null::boolean as passed, percent_of_limit, outcome as microbial'
        : 'passed, percent_of_limit, null::text as microbial';
    const [result] = await tx.query<{
      run_id: number;
      passed: boolean | null;
      percent_of_limit: number | null;
      microbial: 'Pass' | 'Alert' | 'Fail' | null;
      superseded_by: number | null;
    }>(
      `select run_id, ${judged}, superseded_by from ${table}
        where facility_id = $1 and id = $2 for update`,
      [scope.facilityId, resultId],
    );
    if (!result)
      throw new AppError(
        'NotFoundError',
        `${table === 'microbial_results' ? 'Microbial result' : 'Result'} ${resultId} was not found`,
      );
    await editableRun(tx, actor, scope, result.run_id);
    const rule = await verificationSettings(tx, scope.facilityId);
    const column = INVESTIGATED_BY[table];
    const [open] = await tx.query<{ seq: number }>(
      `select seq from investigations where ${column} = $1`,
      [resultId],
    );
    const refuse = (message: string): never => {
      throw validationError([{ property: 'resultId', constraints: { invalid: message } }]);
    };
    if (!isOutOfSpecification(judgedOf(result), rule))
      refuse(
        'Only an out-of-specification result is investigated: a failing one, or one at or above the action level where the verification settings say so',
      );
    if (result.superseded_by !== null) refuse('This result has already been repeated');
    if (open) refuse(`This result is investigated in ${investigationNumber(open.seq)}`);
    const fields = {
      findings: body.findings ?? '',
      outcome: body.outcome ?? null,
      causeCategory: body.causeCategory ?? null,
      causeDescription: body.causeDescription ?? null,
      conclusion: body.conclusion ?? null,
    };
    const problems = fieldProblems(fields);
    if (problems.length > 0) throw validationError(problems);
    // One number after another per facility: the facility's row orders concurrent opens.
    await tx.query(`select id from facilities where id = $1 for update`, [scope.facilityId]);
    const [row] = await tx.query<{ id: number; seq: number }>(
      `insert into investigations (facility_id, seq, run_id, ${column}, findings, outcome,
         cause_category, cause_description, conclusion, created_by, updated_by)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $9
         from investigations where facility_id = $1
       returning id, seq`,
      [
        scope.facilityId,
        result.run_id,
        resultId,
        fields.findings,
        fields.outcome,
        fields.causeCategory,
        fields.causeDescription,
        fields.conclusion,
        actor.userId,
      ],
    );
    await auditRun(tx, actor, scope, {
      domain: 'Investigation',
      action: 'Create',
      entityId: row!.id,
      reason: body.reason ?? null,
      newValues: {
        number: investigationNumber(row!.seq),
        runId: result.run_id,
        [table === 'microbial_results' ? 'microbialResultId' : 'resultId']: resultId,
        phase: 'laboratory',
        ...fields,
      },
    });
    await saveWorkingVersion(tx, actor, scope, row!.id);
    return row!.id;
  });
}

/** `POST {F}/investigations/{id}`: an edit (reason + version) until it is submitted. */
export async function editInvestigation(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: TInvestigationEdit,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.query(`select id from investigations where facility_id = $1 and id = $2 for update`, [
      scope.facilityId,
      id,
    ]);
    const current = await investigationRow(tx, scope.facilityId, id);
    const state = await controlledState(tx, investigationRef(scope, id));
    if (state?.status === 'Approved' || state?.status === 'Deprecated')
      throw new ControlledRefusal(
        'TransactionLocked',
        `${investigationNumber(current.seq)} is concluded (approved by QA): it can no longer change`,
        actor,
        investigationRef(scope, id),
        'Edit',
      );
    await editableRun(tx, actor, scope, current.run_id);
    if (current.version !== body.version) throw new AppError('VersionConflictError');
    const sets: string[] = [];
    const values: unknown[] = [id];
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS) as [Field, string][]) {
      const value = body[field];
      const was = current[column as keyof InvestigationRow];
      if (value === undefined || value === was) continue;
      values.push(value);
      sets.push(`${column} = $${values.length}`);
      oldValues[field] = was;
      newValues[field] = value;
    }
    if (sets.length === 0) throw new AppError('NothingToChangeError');
    const problems = fieldProblems({
      outcome: body.outcome === undefined ? current.outcome : body.outcome,
      causeCategory: body.causeCategory === undefined ? current.cause_category : body.causeCategory,
    });
    if (problems.length > 0) throw validationError(problems);
    values.push(actor.userId);
    await tx.query(
      `update investigations set ${sets.join(', ')}, version = version + 1, updated_at = now(),
              updated_by = $${values.length}
        where id = $1`,
      values as never,
    );
    await auditRun(tx, actor, scope, {
      domain: 'Investigation',
      action: 'Update',
      entityId: id,
      reason: body.reason,
      oldValues,
      newValues,
    });
    await saveWorkingVersion(tx, actor, scope, id);
  });
}
