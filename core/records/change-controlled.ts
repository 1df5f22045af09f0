import { hasFeature, type FacilityKind } from '../facilities/facility-features.ts';
import type { TSignAction } from '../schemas/signatures.schemas.ts';

/*
 * A controlled record whose approval moves limits (a MAC formula) is, in a facility with change
 * control, put in force only by the approval of a change assessment that stages it and showed
 * its effect first (EU GMP Annex 15 §11, ICH Q9): its own signatures neither submit nor approve
 * a version there. A version submitted before (or before the facility had change control) may
 * still be reviewed or rejected, and once rejected is staged like any other. The sign service
 * refuses, and the record's screen offers, by this one rule.
 */

/** What a controlled declaration says about it (core/entities/entity.ts `controlled`). */
export interface ChangeControlDecl {
  changeControlled?: boolean;
}

/** Whether records of the declaration are put in force by a change assessment in this facility. */
export function isPutInForceByChangeAssessment(
  controlled: ChangeControlDecl | undefined,
  facility: FacilityKind,
): boolean {
  return controlled?.changeControlled === true && hasFeature(facility, 'changeControl');
}

/** Whether a signature of `action` is taken on the record itself in this facility. */
export function isSignedDirectly(
  controlled: ChangeControlDecl | undefined,
  facility: FacilityKind,
  action: TSignAction,
): boolean {
  if (action !== 'Submit' && action !== 'Approve') return true;
  return !isPutInForceByChangeAssessment(controlled, facility);
}

/**
 * Why a record of the declaration (its plural label, 'MAC formulas') is not signed into force
 * here, in the words of the screens a user follows (not a route).
 */
export function changeControlNotice(pluralLabel: string): string {
  return `${pluralLabel} move limits: in this facility a version is put in force by approving a change assessment that stages it (Change control › New change assessment › Stage a change), not by its own signatures`;
}
