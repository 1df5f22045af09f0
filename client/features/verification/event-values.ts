import type { TCleaningEvent } from '#core/schemas/verification.schemas.ts';

/** The cleaning event as the form edits it: times as ISO instants (FacilityDateTimeInput). */
export type EventFormValues = Omit<
  TCleaningEvent,
  'startedAt' | 'endedAt' | 'visualResult' | 'visualNotes'
> & {
  startedAt?: string | null;
  endedAt?: string | null;
};

/**
 * Spec §4 hold times: a reached hold above the maximum is a breach; the maximum is the
 * protocol's, else the cleaning inspection settings' the run pinned.
 */
export function holdBreach(
  reached: number | null | undefined,
  max: number | null,
  source: 'protocol' | 'inspection settings' | null = 'protocol',
): string | null {
  if (reached === null || reached === undefined || max === null) return null;
  const of = source === 'inspection settings' ? 'inspection settings' : 'protocol';
  return reached > max ? `${reached} h is above the ${of} maximum of ${max} h` : null;
}
