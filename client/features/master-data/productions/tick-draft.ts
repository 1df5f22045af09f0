/**
 * The user's ticks as changes to the saved list (added, removed), not as a copy of it. When the
 * saved list is reloaded after someone else changed it, the user's changes apply on top of the
 * new one, so a save after a conflict neither drops their ticks nor undoes the other change.
 */
export interface TickChanges {
  added: readonly number[];
  removed: readonly number[];
}

export const NO_CHANGES: TickChanges = { added: [], removed: [] };

/** The list as the user sees it: the saved one with their changes applied, in saved order. */
export function applyTicks(saved: readonly number[], changes: TickChanges): number[] {
  const kept = saved.filter((id) => !changes.removed.includes(id));
  return [...kept, ...changes.added.filter((id) => !kept.includes(id))];
}

export function toggleTick(
  saved: readonly number[],
  changes: TickChanges,
  id: number,
  isTicked: boolean,
): TickChanges {
  const added = changes.added.filter((x) => x !== id);
  const removed = changes.removed.filter((x) => x !== id);
  const isSaved = saved.includes(id);
  if (isTicked && !isSaved) added.push(id);
  if (!isTicked && isSaved) removed.push(id);
  return { added, removed };
}

/** Whether the changes still change anything against the saved list. */
export function hasChanges(saved: readonly number[], changes: TickChanges): boolean {
  return (
    changes.added.some((id) => !saved.includes(id)) ||
    changes.removed.some((id) => saved.includes(id))
  );
}
