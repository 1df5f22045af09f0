import type { TEquipmentState, TLogbookEvent } from './equipment-status.ts';

/**
 * The states and logbook events in words, for the board, the log, its print and anything else
 * people read (the API names them in code).
 */
export const EQUIPMENT_STATE_LABELS: Record<TEquipmentState, string> = {
  InUse: 'In use',
  Dirty: 'Dirty',
  Cleaning: 'Cleaning',
  CleanAwaitingRelease: 'Clean, awaiting release',
  Released: 'Released',
  HoldExpired: 'Clean hold expired',
  Blocked: 'Blocked',
};

export const LOGBOOK_EVENT_LABELS: Record<TLogbookEvent, string> = {
  UseStarted: 'Use started',
  UseEnded: 'Use ended',
  CleaningStarted: 'Cleaning started',
  CleaningEnded: 'Cleaning ended',
  Released: 'Released',
  Blocked: 'Blocked',
  Unblocked: 'Unblocked',
  Correction: 'Correction',
};
