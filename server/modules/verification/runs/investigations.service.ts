import { AppError, validationError, type PropertyError } from '#core/errors/errors.ts';
import type {
  TInvestigationCreate,
  TInvestigationEdit,
} from '#core/schemas/investigation.schemas.ts';
import { investigationsDecl } from '#core/entities/defs/verification.def.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  ControlledRefusal,
  controlledState,
  type ControlledRef,
} from '#server/records/controlled.ts';
import {
  createRecord,
  openRecord,
  writeRecord,
  type Assigned,
  type RecordType,
} from '#server/records/write-record.ts';
import { verificationSettings } from '../statistics/verification-settings.ts';
import {
  investigationNumber,
  investigationRow,
  reportedOf,
  type InvestigationRow,
} from './investigations.read.ts';
import { INVESTIGATED_BY, isOutOfSpecification, judgedOf, type ResultTable } from './oos-rule.ts';
import { editableRun, inTransaction, type Scope } from './runs.service.ts';

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

/**
 * An investigation through the one write path: written until QA concludes it, and only while
 * the run of its result can still change.
 */
export const investigationType: RecordType<typeof investigationsDecl.domain> = {
  decl: investigationsDecl,
  hooks: {
    guard: async (tx, actor, scope, row) => {
      const state = await controlledState(tx, investigationRef(scope, row.id as number));
      if (state?.status === 'Approved' || state?.status === 'Deprecated')
        throw new ControlledRefusal(
          'TransactionLocked',
          `${investigationNumber(row.seq as number)} is concluded (approved by QA): it can no longer change`,
          actor,
          investigationRef(scope, row.id as number),
          'Edit',
        );
      await editableRun(tx, actor, scope, row.run_id as number);
    },
    content: async (tx, scope, id) => {
      const row = await investigationRow(tx, scope.facilityId, id);
      return { content: investigationContent(row), title: titleOf(row) };
    },
  },
};

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
    const row = await createRecord(tx, investigationType, {
      actor,
      scope,
      values: {
        run_id: result.run_id,
        [column]: resultId,
        findings: fields.findings,
        outcome: fields.outcome,
        cause_category: fields.causeCategory,
        cause_description: fields.causeDescription,
        conclusion: fields.conclusion,
      },
      audit: (created) => ({
        reason: body.reason ?? null,
        newValues: {
          number: investigationNumber(created.seq as number),
          runId: result.run_id,
          [table === 'microbial_results' ? 'microbialResultId' : 'resultId']: resultId,
          phase: 'laboratory',
          ...fields,
        },
      }),
    });
    return row.id as number;
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
    const current = await openRecord(tx, investigationType, actor, scope, id, body.version);
    const set: Record<string, Assigned> = {};
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS) as [Field, string][]) {
      const value = body[field];
      const was = current[column];
      if (value === undefined || value === was) continue;
      set[column] = value;
      oldValues[field] = was;
      newValues[field] = value;
    }
    if (Object.keys(set).length === 0) throw new AppError('NothingToChangeError');
    const problems = fieldProblems({
      outcome: body.outcome === undefined ? current.outcome : body.outcome,
      causeCategory: body.causeCategory === undefined ? current.cause_category : body.causeCategory,
    });
    if (problems.length > 0) throw validationError(problems);
    await writeRecord(tx, investigationType, {
      actor,
      scope,
      row: current,
      set,
      audit: { action: 'Update', reason: body.reason, oldValues, newValues },
    });
  });
}
