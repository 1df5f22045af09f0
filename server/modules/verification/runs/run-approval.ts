import {
  ControlledRefusal,
  registerDocumentType,
  type ApprovedContext,
} from '#server/records/controlled.ts';
import type { Queryable } from '#server/db/db.ts';
import { refreshStudy } from '../study-refresh.ts';
import { microbialTally } from '#core/verification/release-microbial.ts';
import {
  unconcludedMessage,
  undecidedFailures,
  undecidedMessage,
} from '#core/verification/failure-decisions.ts';
import { investigationsOf } from './investigations.read.ts';
import { microbialRunState } from './microbial-read.ts';
import { recomputeRun, refuseOnClosedStudy } from './runs.service.ts';
import { pinnedSettings } from './inspection-settings.ts';

/*
 * Run as a controlled document type (core/verification/README.md): Submit needs the visual
 * inspection recorded where the pinned settings require one (and verified by a second person
 * where they say so), a counted result at every planned location (or a deviation explaining the
 * gap: one naming that location, or one that invalidates the run), no Open deviation, no
 * investigation of its results not concluded, and a decision (a deviation) on each failure
 * (core/verification/failure-decisions.ts); the approval completes the run, so the study's outcome is
 * refreshed in the signature's transaction with this run counted.
 */

export const OPEN_DEVIATION = 'A run with an open deviation cannot complete';

/** The location of a microbial key (release-microbial.ts microbialKey); null: the final rinse. */
const keyLocation = (key: string): number | null => {
  const where = key.split(':')[0];
  return where === 'rinse' ? null : Number(where);
};

async function beforeSubmit(tx: Queryable, { ref, actor }: ApprovedContext): Promise<void> {
  const refuse = (why: string): never => {
    throw new ControlledRefusal('TransactionLocked', why, actor, ref, 'Submit');
  };
  const { run, plan, results, deviations, microbial } = await recomputeRun(
    tx,
    ref.facilityId,
    ref.documentId,
  );
  await refuseOnClosedStudy(tx, actor, ref, run, 'Submit');
  if (deviations.some((d) => d.status === 'Open')) refuse(OPEN_DEVIATION);
  const unconcluded = unconcludedMessage(await investigationsOf(tx, ref.facilityId, run.id));
  if (unconcluded) refuse(unconcluded);
  const settings = pinnedSettings(run);
  if (run.inspection) {
    if (settings?.requireSecondPersonVerification && run.inspection.verifiedById === null)
      refuse('The visual inspection is not verified by a second person');
  } else if (settings?.visualInspectionRequired !== false && !run.visual_result) {
    // A visual result without a record is a run's from before inspection records (kept as it was).
    refuse('The visual inspection is not recorded');
  }
  const counted = results.filter((r) => r.supersededBy === null);
  const microbialState = microbialRunState(microbial);
  const undecided = undecidedMessage(
    undecidedFailures({
      failedResults: counted
        .filter((r) => r.judgement.passed === false)
        .map((r) => ({
          id: r.id,
          samplingLocationId: r.samplingLocationId,
          location: r.samplingLocationName,
        })),
      failedMicrobial: microbialState.results
        .filter((m) => !m.superseded && m.judgement === 'Fail')
        .map((m) => ({ samplingLocationId: keyLocation(m.key), label: m.label })),
      visualFailed: run.visual_result === 'Fail',
      deviations,
    }),
  );
  if (undecided) refuse(undecided);
  // A missing sample is explained only by a deviation naming its location, or by one that
  // invalidates the run (repeated anyway, none of its results count); never by an unrelated one.
  if (deviations.some((d) => d.invalidatesRun)) return;
  const explained = new Set(deviations.map((d) => d.samplingLocationId));
  const pending = new Set(microbialTally(microbialState).pending);
  const missing = [
    ...plan
      .filter((p) => !counted.some((r) => r.samplingLocationId === p.samplingLocationId))
      .filter((p) => !explained.has(p.samplingLocationId))
      .map((p) => p.samplingLocationName),
    // The microbial samples the protocol plans (release-microbial.ts): same rule; the final
    // rinse has no location to name.
    ...microbialState.planned
      .filter((p) => pending.has(p.label) && !explained.has(keyLocation(p.key) ?? Number.NaN))
      .map((p) => p.label),
  ];
  if (missing.length > 0)
    refuse(`No result for ${missing.join(', ')} and no deviation explains it`);
}

async function onApproved(tx: Queryable, { actor, ref }: ApprovedContext): Promise<null> {
  const { run } = await recomputeRun(tx, ref.facilityId, ref.documentId);
  await refreshStudy(tx, ref.facilityId, run.study_id, run.id, actor.userId);
  return null;
}

export function registerRunType(): void {
  registerDocumentType('Run', {
    resource: 'QualificationTask',
    action: 'Modify',
    title: (content) => `${String(content.study)} run ${String(content.sequence)}`,
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        `select version from study_runs where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    beforeSubmit,
    onApproved,
  });
}
