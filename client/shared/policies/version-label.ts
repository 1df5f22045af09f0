import type { ControlledRef } from './rules-api.ts';

/**
 * What an editing form says of the version it shows: the draft it edits is not what runs and
 * limits use, so the form names it as such (the plain read answers the version in force).
 */
export function versionLabel(
  ref: Pick<ControlledRef, 'state' | 'inForceVersionNumber' | 'draftVersionNumber'>,
): { text: string; inForce: boolean } | null {
  const shown = ref.state.versionNumber;
  if (ref.draftVersionNumber !== null && shown === ref.draftVersionNumber)
    return { text: `Draft version ${shown} — not in force`, inForce: false };
  if (ref.inForceVersionNumber !== null && shown === ref.inForceVersionNumber)
    return { text: `In force: version ${shown}`, inForce: true };
  return null;
}
