import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type { ZDeviationCreate, ZDeviationEdit } from '#core/schemas/verification.schemas.ts';
import { deviationsDecl } from '#core/entities/defs/verification.def.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  createRecord,
  openRecord,
  writeRecord,
  type Assigned,
  type RecordType,
} from '#server/records/write-record.ts';
import { deviationNumber, studyOf } from './runs.read.ts';
import { afterRunChange, editableRun, inTransaction, type Scope } from './runs.service.ts';

/*
 * Deviations of a run (core/verification/README.md): DEV-0001 per facility, process or
 * non-process (laboratory); only a non-process one may invalidate the run. Each is a controlled
 * record (document type Deviation, deviation-closure.ts): it closes only when QA approves the
 * closure its root cause and conclusion propose. An Open deviation blocks the run's completion
 * and its release.
 */

/** What the signers of a deviation's closure see: the deviation as saved. */
async function deviationContent(tx: Queryable, id: number) {
  const [d] = await tx.query<Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any -- the row as stored
    `select * from deviations where id = $1`,
    [id],
  );
  const number = deviationNumber(d!.seq as number);
  const content = {
    number,
    runId: d!.run_id,
    resultId: d!.result_id,
    samplingLocationId: d!.sampling_location_id,
    kind: d!.kind,
    title: d!.title,
    description: d!.description,
    rootCause: d!.root_cause,
    conclusion: d!.conclusion,
    capaReference: d!.capa_reference,
    invalidatesRun: d!.invalidates_run,
  };
  return { content, title: `${number} ${String(d!.title)}` };
}

/**
 * A deviation through the one write path: it changes only while its run does (the run's record
 * carries its deviations), and every change recomputes the run.
 */
export const deviationType: RecordType<typeof deviationsDecl.domain> = {
  decl: deviationsDecl,
  hooks: {
    guard: async (tx, actor, scope, row) => {
      await editableRun(tx, actor, scope, row.run_id as number);
    },
    content: (tx, _scope, id) => deviationContent(tx, id),
    afterWrite: (tx, actor, scope, row) => afterRunChange(tx, actor, scope, row.run_id as number),
  },
};

/** The run a deviation of the facility belongs to; 404 when it is not the facility's. */
export async function runOfDeviation(q: Queryable, facilityId: number, id: number) {
  const [row] = await q.query<{ run_id: number }>(
    'select run_id from deviations where facility_id = $1 and id = $2',
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Deviation ${id} was not found`);
  return row.run_id;
}

type Create = z.infer<typeof ZDeviationCreate>;
type Edit = z.infer<typeof ZDeviationEdit>;

export const CLOSED_BY_QA =
  'A deviation is closed when QA approves its closure: propose the closure (sign Submit) for QA to sign "Approve closure"';

function checkRules(kind: string, invalidatesRun: boolean, status: string | undefined) {
  const errors = [];
  if (invalidatesRun && kind !== 'nonProcess')
    errors.push({
      property: 'invalidatesRun',
      constraints: { kind: 'Only a non-process (laboratory) deviation invalidates the run' },
    });
  // 21 CFR 211.192: the quality unit reviews the conclusion of an investigation; the author
  // closing their own deviation is exactly what this rule exists to prevent.
  if (status === 'Closed')
    errors.push({ property: 'status', constraints: { approval: CLOSED_BY_QA } });
  if (errors.length > 0) throw validationError(errors);
}

async function checkResult(tx: Queryable, runId: number, resultId: number | null | undefined) {
  if (!resultId) return;
  const [found] = await tx.query(`select 1 from sample_results where run_id = $1 and id = $2`, [
    runId,
    resultId,
  ]);
  if (!found)
    throw validationError([
      { property: 'resultId', constraints: { reference: 'Not a result of this run' } },
    ]);
}

/** A deviation names a location of the run's plan (chemical or microbial), nothing else. */
async function checkLocation(
  tx: Queryable,
  facilityId: number,
  studyId: number,
  locationId: number | null | undefined,
) {
  if (!locationId) return;
  const { protocol_content: content } = await studyOf(tx, facilityId, studyId);
  const planned = [...(content.samplingPlan ?? []), ...(content.microbialSampling ?? [])];
  if (!planned.some((p) => p.samplingLocationId === locationId))
    throw validationError([
      {
        property: 'samplingLocationId',
        constraints: { reference: "Not a sampling location of the run's plan" },
      },
    ]);
}

export async function createDeviation(
  db: Db,
  actor: Actor,
  scope: Scope,
  runId: number,
  body: Create,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, runId);
    checkRules(body.kind, body.invalidatesRun, undefined);
    await checkResult(tx, runId, body.resultId);
    await checkLocation(tx, scope.facilityId, run.study_id, body.samplingLocationId);
    await createRecord(tx, deviationType, {
      actor,
      scope,
      values: {
        run_id: runId,
        result_id: body.resultId ?? null,
        kind: body.kind,
        title: body.title,
        description: body.description,
        root_cause: body.rootCause ?? null,
        capa_reference: body.capaReference ?? null,
        invalidates_run: body.invalidatesRun,
        sampling_location_id: body.samplingLocationId ?? null,
        conclusion: body.conclusion ?? null,
      },
      audit: (row) => ({
        newValues: { number: deviationNumber(row.seq as number), runId, ...body },
      }),
    });
  });
}

const COLUMNS = {
  title: 'title',
  description: 'description',
  rootCause: 'root_cause',
  conclusion: 'conclusion',
  capaReference: 'capa_reference',
  invalidatesRun: 'invalidates_run',
} as const;

/**
 * An edit of a deviation (reason + version), or its reopening (`status: 'Open'`); answers its
 * run's id. A closed deviation that changes is reopened: QA approved what it said before.
 */
export async function editDeviation(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Edit,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const current = await openRecord(tx, deviationType, actor, scope, id, body.version);
    const set: Record<string, Assigned> = {};
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = body[field as keyof typeof COLUMNS];
      if (value === undefined || value === current[column]) continue;
      set[column] = value;
      oldValues[field] = current[column];
      newValues[field] = value;
    }
    checkRules(
      current.kind as string,
      body.invalidatesRun ?? (current.invalidates_run as boolean),
      body.status,
    );
    const changes = Object.keys(set).length > 0;
    const reopening = current.status === 'Closed' && (changes || body.status === 'Open');
    if (!changes && !reopening) throw new AppError('NothingToChangeError');
    if (reopening) {
      Object.assign(set, { status: 'Open', closed_at: null, closed_by: null });
      oldValues.status = 'Closed';
      newValues.status = 'Open';
    }
    await writeRecord(tx, deviationType, {
      actor,
      scope,
      row: current,
      set,
      audit: { action: reopening ? 'Reopen' : 'Update', reason: body.reason, oldValues, newValues },
    });
    return current.run_id as number;
  });
}
