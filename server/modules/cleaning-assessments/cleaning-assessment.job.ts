import { assessLimits, checkCoverage, diffWithPrior } from '#core/assessments/assess-facility.ts';
import type { TAssessmentResult } from '#core/schemas/cleaning-assessments.schemas.ts';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { WITHOUT_JOB, type JobHooks } from '#server/jobs/jobs.ts';
import { printCleaningAssessment } from './cleaning-assessment-print.ts';
import { registerDocumentType } from '#server/records/controlled.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { cleaningAssessmentsDecl } from '#core/entities/defs/assessments.def.ts';
import { NOW, openRecord, writeRecord, type RecordType } from '#server/records/write-record.ts';
import { assessmentData } from './assessment-data.ts';
import { changeAssessmentsSince } from './change-assessment-link.ts';
import { createTasksFromGaps } from './qualification-tasks.ts';
import { AUDIT_DOMAIN, DOCUMENT_TYPE } from './cleaning-assessments.service.ts';

/*
 * The job behind a cleaning assessment: read the facility's data in force, run the assessment
 * step by step (reporting each), store the result and make the record version 1 Being Built.
 */

export const JOB_NAME = 'cleaning-assessment';

export const STAGES = [
  'Reading master data',
  'Computing limits',
  'Checking coverage',
  'Comparing with the prior assessment',
  'Creating qualification tasks',
] as const;

export interface StageProgress {
  stage: string;
  done: number;
  total: number;
}

const DONE: StageProgress = { stage: 'Done', done: STAGES.length, total: STAGES.length };

/**
 * A cleaning assessment through the one write path: what its signers see is its number, reason
 * and result as stored.
 */
const cleaningAssessmentType: RecordType<typeof cleaningAssessmentsDecl.domain> = {
  decl: cleaningAssessmentsDecl,
  hooks: {
    content: async (tx, _scope, id) => {
      const [a] = await tx.query<{ number: string; reason: string | null; result: unknown }>(
        'select number, reason, result from cleaning_assessments where id = $1',
        [id],
      );
      return {
        content: { number: a!.number, reason: a!.reason, result: a!.result },
        title: `Cleaning assessment ${a!.number}`,
      };
    },
  },
};

async function setProgress(q: Queryable, id: number, progress: TJobProgress): Promise<void> {
  await q.query('update cleaning_assessments set progress = $2 where id = $1', [
    id,
    JSON.stringify(progress),
  ]);
}

interface Started {
  facility_id: number;
  plan_id: number;
  number: string;
  reason: string | null;
  started_by: number;
  user_name: string | null;
  completed_at: Date | null;
}

/** The user who started the assessment: its completion is theirs, like the job itself. */
function starterOf(row: Started): Actor {
  return {
    userId: row.started_by,
    userName: row.user_name,
    ip: null,
    userAgent: null,
    requestId: null,
  };
}

export async function runCleaningAssessment(
  db: Db,
  assessmentId: number,
  job: JobHooks = WITHOUT_JOB,
): Promise<void> {
  const [row] = await db.query<Started>(
    `select a.facility_id, f.plan_id, a.number, a.reason, a.started_by, a.completed_at,
            nullif(concat_ws(' ', u.first_name, u.last_name), '') as user_name
       from cleaning_assessments a join facilities f on f.id = a.facility_id
       left join users u on u.id = a.started_by
      where a.id = $1`,
    [assessmentId],
  );
  if (!row) throw new Error(`cleaning assessment ${assessmentId} does not exist`);
  // A job run again after it finished (a retry) changes nothing.
  if (row.completed_at) return;
  const facilityId = row.facility_id;
  const report = async (stage: number) => {
    const p = { stage: STAGES[stage]!, done: stage, total: STAGES.length };
    await setProgress(db, assessmentId, { state: 'running', ...p, error: null });
    await job.progress(p);
  };
  try {
    await report(0);
    const data = await assessmentData(db, facilityId, assessmentId);
    await report(1);
    const limits = assessLimits(data.args);
    await report(2);
    const { coverage, counts } = checkCoverage(data.args, limits);
    await report(3);
    const diff = diffWithPrior(data.args.prior, coverage, limits.worstCases);
    if (data.args.prior) {
      const [prior] = await db.query<{ completed_at: Date }>(
        'select completed_at from cleaning_assessments where id = $1',
        [data.args.prior.id],
      );
      diff.changeAssessments = (
        await changeAssessmentsSince(db, facilityId, prior?.completed_at.toISOString() ?? null)
      ).map(({ id, number, title }) => ({ id, number, title }));
    }
    const result: TAssessmentResult = {
      limitsSnapshotId: data.limitsSnapshotId,
      inputHash: data.inputHash,
      groups: limits.groups,
      worstCases: limits.worstCases,
      overrides: data.overrides,
      coverage,
      counts,
      diff,
      uncomputable: data.args.uncomputable ? [...data.args.uncomputable] : [],
    };
    await report(4);
    await complete(db, assessmentId, row, result, job);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await setProgress(db, assessmentId, {
      state: 'failed',
      stage: 'Failed',
      done: 0,
      total: STAGES.length,
      error: message,
    });
    await db.transaction((tx) =>
      writeAudit(tx, starterOf(row), {
        planId: row.plan_id,
        facilityId,
        domain: AUDIT_DOMAIN,
        action: 'Failed',
        entityId: assessmentId,
        newValues: { number: row.number, error: message },
      }),
    );
    throw error;
  }
}

/** Stores the result, makes the record version 1 Being Built and turns the gaps into tasks. */
async function complete(
  db: Db,
  assessmentId: number,
  row: Started,
  result: TAssessmentResult,
  job: JobHooks,
): Promise<void> {
  const actor = starterOf(row);
  const scope = { planId: row.plan_id, facilityId: row.facility_id };
  await db.transaction(async (tx) => {
    const open = await openRecord(tx, cleaningAssessmentType, actor, scope, assessmentId);
    await writeRecord(tx, cleaningAssessmentType, {
      actor,
      scope,
      row: open,
      set: {
        result: JSON.stringify(result),
        limits_snapshot_id: result.limitsSnapshotId,
        input_hash: result.inputHash,
        completed_at: NOW,
        progress: JSON.stringify({ state: 'done', ...DONE, error: null } satisfies TJobProgress),
      },
      audit: {
        action: 'Complete',
        newValues: { number: row.number, counts: result.counts, inputHash: result.inputHash },
      },
    });
    // Each gap becomes an Open qualification task (or carries its open one over).
    await createTasksFromGaps(tx, {
      actor,
      facilityId: row.facility_id,
      evaluationId: assessmentId,
      coverage: result.coverage,
    });
    // The assessment and its job end together: a completed assessment's job reads as done.
    await job.complete(tx, DONE);
  });
}

/** Cleaning assessments are signed like any controlled record by whoever may generate one. */
export function registerCleaningAssessmentType(): void {
  registerDocumentType(DOCUMENT_TYPE, {
    resource: 'FacilityCleaningEvaluation',
    action: 'Generate',
    title: (content) => `Cleaning assessment ${String(content.number ?? '')}`,
    printContent: printCleaningAssessment,
    recordVersion: async (q, ref) => {
      const [found] = await q.query<{ version: number }>(
        'select version from cleaning_assessments where facility_id = $1 and id = $2',
        [ref.facilityId, ref.documentId],
      );
      return found?.version ?? null;
    },
  });
}
