import type { AuditEvent } from '#core/audit/audit-events.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type { TRun, ZRunEdit } from '#core/schemas/verification.schemas.ts';
import { RUN_RULES_VERSION } from '#core/verification/release.ts';
import { runsDecl } from '#core/entities/defs/verification.def.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import {
  ControlledRefusal,
  controlledState,
  latestVersion,
  versionState,
  type ControlledRef,
  type ControlledVersionState,
} from '#server/records/controlled.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import {
  createRecord,
  openRecord,
  writeByChild,
  writeRecord,
  type Assigned,
  type RecordType,
} from '#server/records/write-record.ts';
import { inTransaction } from '#server/modules/change-assessments/change-assessments.service.ts';
import { refreshStudy } from '../study-refresh.ts';
import { microbialPolicyToPin } from './microbial-read.ts';
import { settingsToPin } from './inspection-settings.ts';
import { announceReleaseFlag } from './run-events.ts';
import { keepingReads } from '#server/db/kept-reads.ts';
import { runReadsOf } from './run-reads.ts';
import {
  getRun,
  judgeRun,
  runName,
  runRow,
  studyNumber,
  studyOf,
  type RunRow,
} from './runs.read.ts';

/*
 * Writes of runs (core/verification/README.md): run N of a study, its cleaning event, and what
 * every change to a run does in its transaction: the verdict and release flag recomputed, the
 * working content of the controlled record saved, the study's outcome refreshed.
 */

export interface Scope {
  planId: number;
  facilityId: number;
}

export const runRef = (scope: Scope, id: number): ControlledRef => ({
  ...scope,
  documentType: 'Run',
  documentId: id,
});

export { inTransaction };

export const auditRun = (
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  entry: {
    entityId: number;
  } & AuditEvent<'Run' | 'SampleResult' | 'MicrobialResult' | 'Deviation' | 'Investigation'> & {
      reason?: string | null;
      oldValues?: object | null;
      newValues?: object | null;
    },
) =>
  writeAudit(tx, actor, {
    ...scope,
    ...entry,
    reason: entry.reason ?? null,
    oldValues: (entry.oldValues as Record<string, unknown>) ?? null,
    newValues: (entry.newValues as Record<string, unknown>) ?? null,
  });

const label = (run: RunRow, seq: number) => runName(seq, run.sequence);

/**
 * The run, locked for a change: at `version` when given, and not yet submitted (its version
 * being built); a submitted or completed run is 409 TransactionLocked, audited.
 */
export async function editableRun(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  version?: number,
): Promise<RunRow> {
  return (await openRecord(tx, runType, actor, scope, id, version)) as RunRow;
}

/**
 * The run's controlled state for its guard. In a write that keeps its reads (run-reads.ts) its
 * latest version is read locked, as the save of its working version would read it, and kept for
 * that save: one read instead of two, and no signature can move it in between.
 */
async function guardedState(
  tx: Queryable,
  scope: Scope,
  id: number,
): Promise<ControlledVersionState | null> {
  const reads = runReadsOf(tx);
  if (!reads) return controlledState(tx, runRef(scope, id));
  const row = await latestVersion(tx, runRef(scope, id), true);
  reads.latest.set(id, { row });
  return row ? versionState(row) : null;
}

/** A run changes only while its study is open and its version is being built. */
async function refuseUnlessEditable(tx: Queryable, actor: Actor, scope: Scope, run: RunRow) {
  await refuseOnClosedStudy(tx, actor, scope, run, 'Edit');
  const state = await guardedState(tx, scope, run.id);
  if (state && state.status !== 'BeingBuilt') {
    const why = state.status === 'Approved' ? 'completed' : 'submitted for signatures';
    throw new ControlledRefusal(
      'TransactionLocked',
      `Run ${run.sequence} is ${why}: its event, results and deviations can no longer change${state.status === 'Approved' ? '' : '; reject it to edit it again'}.`,
      actor,
      runRef(scope, run.id),
      'Edit',
    );
  }
  runReadsOf(tx)?.building.add(run.id);
}

/**
 * A closed study's outcome is final (spec §4), so its runs are frozen with it: 409
 * TransactionLocked, audited, for a change or a signature.
 */
export async function refuseOnClosedStudy(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  run: Pick<RunRow, 'id' | 'study_id' | 'sequence'>,
  action: 'Edit' | 'Submit',
): Promise<void> {
  // In a write that keeps its reads (a results entry, run-reads.ts) the study read here is the
  // one the write goes on with: one read instead of two.
  const [study] = runReadsOf(tx)
    ? [await studyOf(tx, scope.facilityId, run.study_id)]
    : await tx.query<{ seq: number; closed_at: Date | null }>(
        `select seq, closed_at from studies where facility_id = $1 and id = $2`,
        [scope.facilityId, run.study_id],
      );
  if (study?.closed_at)
    throw new ControlledRefusal(
      'TransactionLocked',
      `${studyNumber(study.seq)} is closed: run ${run.sequence} can no longer change.`,
      actor,
      runRef(scope, run.id),
      action,
    );
}

/** Recomputes the verdict and release flag and stores them; answers what they derive from. */
export async function recomputeRun(tx: Queryable, facilityId: number, id: number, saved?: RunRow) {
  const run = saved ?? (await runRow(tx, facilityId, id));
  const judged = await judgeRun(tx, facilityId, run);
  const { study, plan, results, deviations, microbial, verdict, release } = judged;
  const flag = release.flag;
  if (
    verdict !== run.verdict ||
    flag !== run.release_flag ||
    run.rules_version !== RUN_RULES_VERSION
  )
    await tx.query(
      `update study_runs set verdict = $2, release_flag = $3, rules_version = $4 where id = $1`,
      [id, verdict, flag, RUN_RULES_VERSION],
    );
  await announceReleaseFlag(tx, facilityId, run, study.seq, {
    verdict,
    flag,
    reasons: release.reasons,
  });
  runReadsOf(tx)?.judged.set(id, { run: { ...run, verdict, release_flag: flag }, judged });
  return {
    run: { ...run, verdict, release_flag: flag },
    study,
    plan,
    results,
    deviations,
    microbial,
  };
}

/** What the signers of a run see, with the verdict and release flag recomputed first. */
async function runContent(tx: Queryable, facilityId: number, id: number, saved?: RunRow) {
  const { run, study, results, deviations, microbial } = await recomputeRun(
    tx,
    facilityId,
    id,
    saved,
  );
  const content = {
    study: studyNumber(study.seq),
    sequence: run.sequence,
    event: {
      startedAt: run.started_at,
      endedAt: run.ended_at,
      operatorIds: run.operator_ids,
      cleaningProcedureId: run.cleaning_procedure_id,
      agentLot: run.agent_lot,
      productBatch: run.product_batch,
      dirtyHoldHours: run.dirty_hold_hours,
      cleanHoldHours: run.clean_hold_hours,
      visualResult: run.visual_result,
      visualNotes: run.visual_notes,
    },
    inspectionSettingsVersion: run.inspection_settings_version,
    inspection: run.inspection,
    verdict: run.verdict,
    releaseFlag: run.release_flag,
    results: results.map((r) => ({
      id: r.id,
      location: r.samplingLocationName,
      batchNumber: r.batchNumber,
      reported: `${r.censoring === '=' ? '' : `${r.censoring} `}${r.rawValue} ${r.unit}`,
      percentOfLimit: r.judgement.percentOfLimit,
      passed: r.judgement.passed,
      supersededBy: r.supersededBy,
      invalidatedBy: r.invalidatedBy?.number ?? null,
    })),
    microbialPolicyVersion: microbial.pinnedVersionNumber,
    microbialResults: microbial.results.map((r) => ({
      id: r.id,
      location: r.samplingLocationName,
      kind: r.kind,
      reported: `${r.censoring === '=' ? '' : `${r.censoring} `}${r.rawValue} ${r.unit}`,
      percentOfLimit: r.judgement.percentOfLimit,
      judgement: r.judgement.judgement,
      supersededBy: r.supersededBy,
      invalidatedBy: r.invalidatedBy?.number ?? null,
    })),
    deviations: deviations.map((d) => ({
      number: d.number,
      kind: d.kind,
      title: d.title,
      status: d.status,
      invalidatesRun: d.invalidatesRun,
      rootCause: d.rootCause,
      conclusion: d.conclusion,
    })),
  };
  const reads = runReadsOf(tx);
  const latest = reads?.latest.get(id);
  reads?.latest.delete(id);
  return { content, title: label(run, study.seq), latest };
}

/**
 * A run through the one write path: it changes only while its study is open and it is not yet
 * submitted; every write recomputes its verdict and release flag, saves the content its signers
 * will see as the working version and refreshes its study's outcome.
 */
export const runType: RecordType<typeof runsDecl.domain> = {
  decl: runsDecl,
  hooks: {
    guard: (tx, actor, scope, row) => refuseUnlessEditable(tx, actor, scope, row as RunRow),
    content: (tx, scope, id, saved) => runContent(tx, scope.facilityId, id, saved as RunRow),
    afterWrite: async (tx, actor, scope, row, saved, created) => {
      const reads = runReadsOf(tx);
      // The state the answer of this write shows, as its working version left it (run-reads.ts).
      if (saved) reads?.states.set(row.id as number, saved);
      // Not completed before this write (or created by it) nor after it: the study's completed
      // runs, from which alone its outcome derives, are as they were (run-reads.ts).
      const before = created || reads?.building.has(row.id as number);
      if (saved?.status === 'BeingBuilt' && before) return;
      await refreshStudy(tx, scope.facilityId, row.study_id as number, undefined, actor.userId);
    },
  },
};

/**
 * After a change of a run's result, deviation or investigation (its children, audited as
 * themselves): the run's version moves, with its recompute, working version and study outcome.
 * The caller has opened the run, and may pass the row it opened: its children's writes do not
 * change it, and reading it again would be one more statement of every entry.
 */
export async function afterRunChange(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  opened?: RunRow,
): Promise<void> {
  const run = opened ?? (await runRow(tx, scope.facilityId, id, true));
  await writeByChild(tx, runType, { actor, scope, row: run });
}

export async function createRun(
  db: Db,
  actor: Actor,
  scope: Scope,
  studyId: number,
  reason: string | undefined,
): Promise<number> {
  return inTransaction(db, (tx) =>
    keepingReads(tx, () => create(tx, actor, scope, studyId, reason)),
  );
}

/**
 * createRun answering the run as it committed, read in its transaction (the route): the study
 * locked for its sequence is the one the run's recompute judges with, and the run its recompute
 * judged is the one answered (run-reads.ts), not read again after the commit.
 */
export async function createRunAndRead(
  db: Db,
  actor: Actor,
  scope: Scope,
  studyId: number,
  reason: string | undefined,
): Promise<TRun> {
  return inTransaction(db, (tx) =>
    keepingReads(tx, async () =>
      getRun(tx, scope.facilityId, await create(tx, actor, scope, studyId, reason)),
    ),
  );
}

async function create(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  studyId: number,
  reason: string | undefined,
): Promise<number> {
  const study = await studyOf(tx, scope.facilityId, studyId, true);
  if (study.closed_at)
    throw new AppError(
      'TransactionLocked',
      `${studyNumber(study.seq)} is closed: it takes no more runs`,
    );
  // Run N after the study's last: the study's row, locked above, orders concurrent creates.
  const [next] = await tx.query<{ sequence: number }>(
    `select coalesce(max(sequence), 0) + 1 as sequence from study_runs where study_id = $1`,
    [studyId],
  );
  const row = await createRecord(tx, runType, {
    actor,
    scope,
    values: { study_id: studyId, sequence: next!.sequence },
    audit: () => ({
      reason: reason ?? null,
      newValues: { study: studyNumber(study.seq), sequence: next!.sequence },
    }),
  });
  return row.id as number;
}

type RunEdit = z.infer<typeof ZRunEdit>;

const COLUMNS = {
  startedAt: 'started_at',
  endedAt: 'ended_at',
  operatorIds: 'operator_ids',
  cleaningProcedureId: 'cleaning_procedure_id',
  agentLot: 'agent_lot',
  productBatch: 'product_batch',
  dirtyHoldHours: 'dirty_hold_hours',
  cleanHoldHours: 'clean_hold_hours',
} as const;

async function checkEventReferences(tx: Queryable, facilityId: number, body: RunEdit) {
  const errors = [];
  const operators = body.operatorIds ?? [];
  if (operators.length > 0) {
    const found = await tx.query<{ id: number }>(
      `select id from operators where facility_id = $1 and id = any($2::int[]) and archived_at is null`,
      [facilityId, operators],
    );
    const missing = operators.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0)
      errors.push({
        property: 'operatorIds',
        constraints: {
          reference:
            missing.length === 1
              ? 'One of the chosen operators is not in this facility'
              : `${missing.length} of the chosen operators are not in this facility`,
        },
      });
  }
  if (body.cleaningProcedureId) {
    const [found] = await tx.query(
      `select 1 from cleaning_procedures where facility_id = $1 and id = $2`,
      [facilityId, body.cleaningProcedureId],
    );
    if (!found)
      errors.push({
        property: 'cleaningProcedureId',
        constraints: {
          reference: 'No such cleaning procedure in this facility',
        },
      });
  }
  if (body.startedAt && body.endedAt && body.endedAt < body.startedAt)
    errors.push({
      property: 'endedAt',
      constraints: { order: 'The cleaning cannot end before it started' },
    });
  if (errors.length > 0) throw validationError(errors);
}

/** The cleaning event (reason + version), until the run is submitted. */
export async function editRun(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: RunEdit,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, id, body.version);
    await checkEventReferences(tx, scope.facilityId, body);
    const set: Record<string, Assigned> = {};
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = body[field as keyof typeof COLUMNS];
      if (value === undefined) continue;
      const stored = value ?? (column === 'operator_ids' ? [] : null);
      set[column] = stored;
      oldValues[field] = run[column];
      newValues[field] = stored;
    }
    if (Object.keys(set).length === 0) throw new AppError('NothingToChangeError');
    // The run starts: the cleaning inspection settings and the microbial limit policy in force
    // now judge its inspection and its microbial results.
    const startedAt = body.startedAt === undefined ? run.started_at : body.startedAt;
    const pin = await settingsToPin(tx, scope.facilityId, run, body.startedAt);
    if (pin) {
      set.inspection_settings_version = pin.versionNumber;
      set.inspection_settings = JSON.stringify(pin.settings);
      newValues.inspectionSettingsVersion = pin.versionNumber;
    }
    const microbial = await microbialPolicyToPin(tx, scope.facilityId, run, startedAt);
    if (microbial) {
      set.microbial_policy = JSON.stringify(microbial.content);
      set.microbial_policy_version = microbial.versionNumber;
      newValues.microbialPolicyVersion = microbial.versionNumber;
    }
    await writeRecord(tx, runType, {
      actor,
      scope,
      row: run,
      set,
      audit: { action: 'Update', reason: body.reason, oldValues, newValues },
    });
  });
}
