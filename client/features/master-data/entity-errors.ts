import { isApiError } from '../../api/api-error.ts';

/** How a form reacts to a failed save. */
export type SaveProblem =
  | { kind: 'conflict'; title: string; message: string }
  | { kind: 'fields'; title: string; message: string }
  | { kind: 'notice'; title: string; message: string };

export const NOTHING_TO_CHANGE = {
  title: 'Nothing to change',
  message:
    'No changes have been made from the current values. Please check all fields and try again.',
};

export const DATA_ARCHIVED_TITLE = 'Data Archived';
export const DATA_ARCHIVED_ADVICE =
  'Restore the entry from the archived list, or change the id to create a new one.';

export const VERSION_CONFLICT = {
  title: 'Changed by someone else',
  message:
    'This record was changed by someone else since you opened it. Your entries are kept: reload the current values, then apply your change again.',
};

/** Spec §8 texts per error name; field messages go onto the form's fields. */
export function describeSaveError(error: unknown): SaveProblem {
  if (!isApiError(error)) {
    return {
      kind: 'notice',
      title: 'Error Occurred',
      message: error instanceof Error ? error.message : String(error),
    };
  }
  switch (error.errName) {
    case 'VersionConflictError':
      return { kind: 'conflict', ...VERSION_CONFLICT };
    case 'NothingToChangeError':
      return { kind: 'notice', ...NOTHING_TO_CHANGE };
    case 'ArchivedEntryError':
      return {
        kind: 'fields',
        title: DATA_ARCHIVED_TITLE,
        message: `${stripTitle(error.message, DATA_ARCHIVED_TITLE)} ${DATA_ARCHIVED_ADVICE}`.trim(),
      };
    case 'DuplicateEntryError':
    case 'DataValidationError':
      return {
        kind: 'fields',
        title: 'Please check the highlighted fields',
        message: error.message,
      };
    default:
      return { kind: 'notice', title: 'Error Occurred', message: error.message };
  }
}

/** The server's archived message already starts with 'Data Archived:' and may carry advice too. */
function stripTitle(message: string, title: string): string {
  const rest = message.startsWith(title)
    ? message.slice(title.length).replace(/^[:\s]+/, '')
    : message;
  // The server's own advice would repeat ours.
  return rest.replace(/\s*Restore it from the archived list[^.]*\.\s*$/, '').trim();
}
