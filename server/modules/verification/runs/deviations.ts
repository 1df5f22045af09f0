import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type { ZDeviationCreate, ZDeviationEdit } from '#core/schemas/verification.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { deviationNumber, studyOf } from './runs.read.ts';
import {
  afterRunChange,
  auditRun,
  editableOfRun,
  editableRun,
  inTransaction,
  type Scope,
} from './runs.service.ts';

/*
 * Deviations of a run (core/verification/README.md): DEV-0001 per facility, process or
 * non-process (laboratory); only a non-process one may invalidate the run; closing needs a root
 * cause. An Open deviation blocks the run's completion and its release.
 */

type Create = z.infer<typeof ZDeviationCreate>;
type Edit = z.infer<typeof ZDeviationEdit>;

function checkRules(
  kind: string,
  invalidatesRun: boolean,
  closing: boolean,
  rootCause: string | null,
) {
  const errors = [];
  if (invalidatesRun && kind !== 'nonProcess')
    errors.push({
      property: 'invalidatesRun',
      constraints: { kind: 'Only a non-process (laboratory) deviation invalidates the run' },
    });
  if (closing && !rootCause?.trim())
    errors.push({
      property: 'rootCause',
      constraints: { required: 'A deviation is closed with its root cause' },
    });
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
    checkRules(body.kind, body.invalidatesRun, false, null);
    await checkResult(tx, runId, body.resultId);
    await checkLocation(tx, scope.facilityId, run.study_id, body.samplingLocationId);
    // One number after another per facility: the facility's row orders concurrent creates.
    await tx.query(`select id from facilities where id = $1 for update`, [scope.facilityId]);
    const [row] = await tx.query<{ id: number; seq: number }>(
      `insert into deviations (facility_id, seq, run_id, result_id, kind, title, description,
         root_cause, capa_reference, invalidates_run, created_by, updated_by, sampling_location_id)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11
         from deviations where facility_id = $1
       returning id, seq`,
      [
        scope.facilityId,
        runId,
        body.resultId ?? null,
        body.kind,
        body.title,
        body.description,
        body.rootCause ?? null,
        body.capaReference ?? null,
        body.invalidatesRun,
        actor.userId,
        body.samplingLocationId ?? null,
      ],
    );
    await auditRun(tx, actor, scope, {
      domain: 'Deviation',
      action: 'Create',
      entityId: row!.id,
      newValues: { number: deviationNumber(row!.seq), runId, ...body },
    });
    await afterRunChange(tx, actor, scope, runId);
  });
}

const COLUMNS = {
  title: 'title',
  description: 'description',
  rootCause: 'root_cause',
  capaReference: 'capa_reference',
  invalidatesRun: 'invalidates_run',
  status: 'status',
} as const;

/** An edit or the close of a deviation (reason + version); answers its run's id. */
export async function editDeviation(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Edit,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const { current } = await editableOfRun(tx, actor, scope, {
      table: 'deviations',
      label: 'Deviation',
      id,
      version: body.version,
    });
    const sets: string[] = [];
    const values: unknown[] = [id];
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = body[field as keyof typeof COLUMNS];
      if (value === undefined || value === current[column]) continue;
      values.push(value);
      sets.push(`${column} = $${values.length}`);
      oldValues[field] = current[column];
      newValues[field] = value;
    }
    if (sets.length === 0) throw new AppError('NothingToChangeError');
    const status = body.status ?? current.status;
    const rootCause = body.rootCause === undefined ? current.root_cause : body.rootCause;
    checkRules(
      current.kind as string,
      body.invalidatesRun ?? (current.invalidates_run as boolean),
      status === 'Closed',
      rootCause as string | null,
    );
    values.push(actor.userId);
    const by = `$${values.length}`;
    const closing =
      status !== current.status
        ? status === 'Closed'
          ? `, closed_at = now(), closed_by = ${by}`
          : ', closed_at = null, closed_by = null'
        : '';
    await tx.query(
      `update deviations set ${sets.join(', ')}${closing}, version = version + 1,
              updated_at = now(), updated_by = ${by}
        where id = $1`,
      values as never,
    );
    await auditRun(tx, actor, scope, {
      domain: 'Deviation',
      action: status === 'Closed' && current.status !== 'Closed' ? 'Close' : 'Update',
      entityId: id,
      reason: body.reason,
      oldValues,
      newValues,
    });
    await afterRunChange(tx, actor, scope, current.run_id as number);
    return current.run_id as number;
  });
}
