import { AppError } from '#core/errors/errors.ts';
import { microbialResultsDecl, sampleResultsDecl } from '#core/entities/defs/verification.def.ts';
import type { Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { openRecord, type RecordType, type StoredRow } from '#server/records/write-record.ts';
import type { ResultTable } from './oos-rule.ts';
import type { RunRow } from './runs.read.ts';
import { editableRun, type Scope } from './runs.service.ts';

/*
 * Sample and microbial results through the one write path: children of their run, which carries
 * them (core/verification/README.md), so a result changes only while its run does, and the
 * caller moves the run's version once per request (afterRunChange), not once per result.
 */

const childOfRun = (tx: Queryable, actor: Actor, scope: Scope, row: StoredRow) =>
  editableRun(tx, actor, scope, row.run_id as number).then(() => undefined);

export const sampleResultType: RecordType<typeof sampleResultsDecl.domain> = {
  decl: sampleResultsDecl,
  hooks: { guard: childOfRun },
};

export const microbialResultType: RecordType<typeof microbialResultsDecl.domain> = {
  decl: microbialResultsDecl,
  hooks: { guard: childOfRun },
};

type ResultDomain = typeof sampleResultsDecl.domain | typeof microbialResultsDecl.domain;

export const resultType = (table: ResultTable): RecordType<ResultDomain> =>
  table === 'microbial_results' ? microbialResultType : sampleResultType;

/**
 * A result locked for a correction at `version` (404 when not the facility's), while its run is
 * not yet submitted: the run is locked first, in the order every write of a run takes.
 */
export async function openResult(
  tx: Queryable,
  type: RecordType,
  actor: Actor,
  scope: Scope,
  id: number,
  version: number,
): Promise<{ current: StoredRow; run: RunRow }> {
  const { table, label } = type.decl;
  const [found] = await tx.query<{ run_id: number }>(
    `select run_id from ${table} where facility_id = $1 and id = $2`,
    [scope.facilityId, id],
  );
  if (!found) throw new AppError('NotFoundError', `${label} ${id} was not found`);
  const run = await editableRun(tx, actor, scope, found.run_id);
  const current = await openRecord(tx, type, actor, scope, id, version);
  return { current, run };
}

/** The columns of what a new result repeats (a retest or re-swab), or none. */
export const repeatColumns = (
  repeats: { resultId: number; kind: string; reason?: string | null | undefined } | undefined,
) => ({
  repeats_result_id: repeats?.resultId ?? null,
  repeat_kind: repeats?.kind ?? null,
  repeat_reason: repeats?.reason ?? null,
});
