import {
  INSPECTION_SETTINGS_DEFAULTS,
  type TInspectionSettings,
} from '#core/schemas/facility-rules.schemas.ts';
import type { TInspectionRecord, TRunInspection } from '#core/schemas/run-inspection.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { contentInForce } from '#server/modules/policies/policy-in-force.ts';

/*
 * The cleaning inspection settings a run is judged with (core/verification/README.md "Visual
 * inspection"): the approved version in force when its cleaning started, pinned on the run
 * (number and content), so a later change of the settings does not re-judge it.
 */

/** What a run keeps of its inspection (the columns of study_runs). */
export interface RunInspectionColumns {
  inspection_settings_version: number | null;
  inspection_settings: Partial<TInspectionSettings> | null;
  inspection: TInspectionRecord | null;
}

/** The pinned settings over the defaults (a version stored before a field existed), or null. */
export function pinnedSettings(run: RunInspectionColumns): TInspectionSettings | null {
  if (run.inspection_settings_version === null || run.inspection_settings === null) return null;
  return { ...INSPECTION_SETTINGS_DEFAULTS, ...run.inspection_settings };
}

/** Recorded, and verified by a second person where the pinned settings require it. */
export function isInspectionComplete(run: RunInspectionColumns): boolean {
  const record = run.inspection;
  if (!record) return false;
  const settings = pinnedSettings(run);
  return settings?.requireSecondPersonVerification !== true || record.verifiedById !== null;
}

export function runInspectionOf(run: RunInspectionColumns): TRunInspection {
  return {
    settingsVersion: run.inspection_settings_version,
    settings: pinnedSettings(run),
    record: run.inspection,
    isComplete: isInspectionComplete(run),
  };
}

/**
 * When an edit of the cleaning event starts the run (its first start time), the settings
 * approved now, to pin on it; null when it started before (the pin stays) or does not start.
 */
export async function settingsToPin(
  q: Queryable,
  facilityId: number,
  run: RunInspectionColumns,
  startedAt: string | null | undefined,
): Promise<{ versionNumber: number; settings: TInspectionSettings } | null> {
  if (!startedAt || run.inspection_settings_version !== null) return null;
  const inForce = await contentInForce<Partial<TInspectionSettings>>(
    q,
    facilityId,
    'InspectionSettings',
  );
  return {
    versionNumber: inForce.versionNumber,
    settings: { ...INSPECTION_SETTINGS_DEFAULTS, ...inForce.content },
  };
}
