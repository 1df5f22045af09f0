import { AppError } from '#core/errors/errors.ts';
import type {
  TResidueMeasureRequest,
  ZResidueMeasureResponse,
} from '#core/schemas/analytical-methods.schemas.ts';
import {
  residueMeasureAction,
  RESIDUE_MEASURE_CONVERSIONS,
  RESIDUE_MEASURE_LABELS,
  type TResidueMeasure,
} from '#core/verification/residue-measure.ts';
import type { z } from 'zod';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';

/*
 * What an analytical method measures when it is not the active itself (issue 32). Kept apart from
 * the method's other fields so that the ResidueMeasure permission guards it: changing it changes
 * how every later result of the method is converted and judged. Each change is audited with the
 * reason (21 CFR 11.10(e), EU GMP Annex 11 §9).
 */

type Response = z.infer<typeof ZResidueMeasureResponse>;

interface MethodRow {
  id: number;
  facility_id: number;
  version: number;
  residue_measure: TResidueMeasure;
}

async function methodRow(q: Queryable, facilityId: number, id: number, lock: boolean) {
  const [row] = await q.query<MethodRow>(
    `select id, facility_id, version, residue_measure from analytical_methods
      where facility_id = $1 and id = $2 ${lock ? 'for update' : ''}`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Analytical method ${id} was not found`);
  return row;
}

const answer = (row: MethodRow): Response => ({
  id: row.id,
  residueMeasure: row.residue_measure,
  label: RESIDUE_MEASURE_LABELS[row.residue_measure],
  conversion: RESIDUE_MEASURE_CONVERSIONS[row.residue_measure],
  version: row.version,
});

/**
 * The right the change a request asks for takes (residueMeasureAction), read before the body is
 * validated; the method is read again under lock with its version, so a change in between is a
 * version conflict, never a wrong right.
 */
export async function residueMeasureRight(
  q: Queryable,
  facilityId: number,
  id: number,
  wanted: unknown,
): Promise<'Add' | 'Delete' | 'Modify'> {
  const { residue_measure: current } = await methodRow(q, facilityId, id, false);
  return residueMeasureAction(current, wanted);
}

export async function readResidueMeasure(
  db: Queryable,
  facilityId: number,
  id: number,
): Promise<Response> {
  return answer(await methodRow(db, facilityId, id, false));
}

export async function setResidueMeasure(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  id: number,
  body: TResidueMeasureRequest,
): Promise<Response> {
  return db.transaction(async (tx) => {
    const row = await methodRow(tx, scope.facilityId, id, true);
    if (row.version !== body.version) throw new AppError('VersionConflictError');
    if (row.residue_measure === body.residueMeasure)
      throw new AppError(
        'NothingToChangeError',
        `The method already measures: ${RESIDUE_MEASURE_LABELS[body.residueMeasure]}`,
      );
    const updated = (await updateVersioned(
      tx,
      {
        table: 'analytical_methods',
        ownerColumn: 'facility_id',
        ownerId: scope.facilityId,
        id,
        version: row.version,
      },
      actor.userId,
      { residue_measure: body.residueMeasure },
      'id, facility_id, version, residue_measure',
    )) as unknown as MethodRow;
    await writeAudit(tx, actor, {
      ...scope,
      domain: 'AnalyticalMethod',
      action: 'ResidueMeasure',
      entityId: id,
      reason: body.reason,
      oldValues: { residueMeasure: row.residue_measure },
      newValues: { residueMeasure: body.residueMeasure },
    });
    return answer(updated);
  });
}
