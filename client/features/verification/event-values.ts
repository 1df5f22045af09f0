import type { TCleaningEvent } from '#core/schemas/verification.schemas.ts';

/** The cleaning event as the form edits it: times as the browser's datetime-local text. */
export type EventFormValues = Omit<
  TCleaningEvent,
  'startedAt' | 'endedAt' | 'visualResult' | 'visualNotes'
> & {
  startedAt?: string | null;
  endedAt?: string | null;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as 'YYYY-MM-DDTHH:mm' in the browser's time zone, for <input type="datetime-local">. */
export function toLocalInput(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local text back to an ISO instant (UTC), or null when left empty. */
export function fromLocalInput(text: string | null | undefined): string | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

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
