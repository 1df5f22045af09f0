import { AppError, validationError, type PropertyError } from '#core/errors/errors.ts';
import type { TInspectionInput, TInspectionRecord } from '#core/schemas/run-inspection.schemas.ts';
import { inspectionProblems } from '#core/verification/inspection.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { pinnedSettings } from './inspection-settings.ts';
import { writeRecord } from '#server/records/write-record.ts';
import { editableRun, inTransaction, runType, type Scope } from './runs.service.ts';

/*
 * The visual inspection of a run (core/verification/README.md "Visual inspection"): recorded by
 * the signed-in inspector against the settings the run pinned, verified by a second person.
 * Each write goes through the run's change mechanism: locked at its version while not yet
 * submitted, audited on the run, its verdict, release flag and working content recomputed.
 */

// A clock a little ahead of the server's (a tablet's) is not an inspection in the future.
const CLOCK_SKEW_MS = 5 * 60_000;

const refusal = (property: string, rule: string, message: string): PropertyError => ({
  property,
  constraints: { [rule]: message },
});

/** Records (or re-records, with a reason) the inspection; a second person verifies it anew. */
export async function recordInspection(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: TInspectionInput,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, id, body.version);
    const settings = pinnedSettings(run);
    if (!settings)
      throw validationError([
        refusal(
          'inspectedAt',
          'started',
          'Record when the cleaning started first: the inspection is judged against the cleaning inspection settings in force then',
        ),
      ]);
    const problems: PropertyError[] = [];
    const inspectedAt = body.inspectedAt ? new Date(body.inspectedAt) : new Date();
    const cleaned = run.ended_at ?? run.started_at;
    if (cleaned && inspectedAt < new Date(cleaned))
      problems.push(
        refusal(
          'inspectedAt',
          'order',
          `The inspection cannot be before the cleaning ${run.ended_at ? 'ended' : 'started'}`,
        ),
      );
    if (inspectedAt.getTime() > Date.now() + CLOCK_SKEW_MS)
      problems.push(refusal('inspectedAt', 'future', 'The inspection cannot be in the future'));
    problems.push(...inspectionProblems(settings, body));
    if (run.inspection && !body.reason)
      problems.push(
        refusal('reason', 'required', 'A reason is required to change a recorded inspection'),
      );
    if (problems.length > 0) throw validationError(problems);

    const record: TInspectionRecord = {
      inspectorId: actor.userId,
      inspectorName: actor.userName,
      inspectedAt: inspectedAt.toISOString(),
      lightLux: body.lightLux,
      checklist: settings.checklist.map((item, index) => ({
        item: item.item,
        isMandatory: item.isMandatory,
        answer: body.checklist[index]!.answer,
      })),
      result: body.result,
      notes: body.notes?.trim() || null,
      evidenceReference: body.evidenceReference?.trim() || null,
      verifiedById: null,
      verifiedByName: null,
      verifiedAt: null,
    };
    await writeRecord(tx, runType, {
      actor,
      scope,
      row: run,
      set: {
        inspection: JSON.stringify(record),
        visual_result: record.result,
        visual_notes: record.notes,
      },
      audit: {
        action: 'Update',
        reason: body.reason ?? null,
        oldValues: { inspection: run.inspection },
        newValues: {
          inspection: record,
          inspectionSettingsVersion: run.inspection_settings_version,
        },
      },
    });
  });
}

/** The signed-in user verifies the recorded inspection: a second person, never the inspector. */
export async function verifyInspection(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: { reason?: string | undefined; version: number },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, id, body.version);
    const record = run.inspection;
    if (!record)
      throw validationError([
        refusal(
          'verifiedBy',
          'recorded',
          'No inspection is recorded yet: there is nothing to verify',
        ),
      ]);
    if (record.verifiedById !== null)
      throw new AppError(
        'NothingToChangeError',
        `The inspection is already verified by ${record.verifiedByName ?? 'a second person'}`,
      );
    if (record.inspectorId === actor.userId)
      throw validationError([
        refusal(
          'verifiedBy',
          'secondPerson',
          'The verifier cannot be the inspector: a second person verifies the inspection',
        ),
      ]);
    const verified: TInspectionRecord = {
      ...record,
      verifiedById: actor.userId,
      verifiedByName: actor.userName,
      verifiedAt: new Date().toISOString(),
    };
    await writeRecord(tx, runType, {
      actor,
      scope,
      row: run,
      set: { inspection: JSON.stringify(verified) },
      audit: {
        action: 'Update',
        reason: body.reason ?? null,
        oldValues: { inspectionVerifiedBy: null },
        newValues: {
          inspectionVerifiedBy: verified.verifiedByName,
          inspectionVerifiedAt: verified.verifiedAt,
        },
      },
    });
  });
}
