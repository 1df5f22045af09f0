import type { FormInstance } from 'antd';
import { notification } from 'antd';
import { isApiError } from './api-error.ts';
import {
  parsePropertyPath,
  propertyHeading,
  type PropertyPath,
} from '#core/errors/property-path.ts';

/**
 * What a screen does with a failed save, in one place for every form (spec §5, §8): messages
 * of DataValidationError and DuplicateEntryError go onto their fields, the rest is a notice with
 * the catalogue's title.
 */

/**
 * DataValidationError's per-property messages as antd `setFields` entries, so each message
 * shows under its own field. A list edited in one field (tags) gets its items' messages,
 * numbered from 1, because the form has no field per item.
 */
export function formFieldErrors(error: unknown): { name: PropertyPath; errors: string[] }[] {
  if (!isApiError(error) || !error.errors) return [];
  const byField = new Map<string, { name: PropertyPath; errors: string[] }>();
  for (const item of error.errors) {
    const path = parsePropertyPath(item.property);
    const last = path[path.length - 1];
    const isItem = typeof last === 'number' && path.length > 1;
    const name = isItem ? path.slice(0, -1) : path;
    const messages = Object.values(item.constraints ?? {}).map((message) =>
      isItem ? `Item ${last + 1}: ${message}` : message,
    );
    const key = JSON.stringify(name);
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(...messages);
    byField.set(key, entry);
  }
  return [...byField.values()];
}

/**
 * Messages no field of the form carries, one line each, led by their property in words:
 * "Product 13, unit of minimum batch size: …", never 'products.12.minBatchSize.unit'.
 */
export function unplacedLines(fields: readonly { name: PropertyPath; errors: string[] }[]): string {
  return fields
    .map((item) => `${propertyHeading(item.name)}: ${item.errors.join(', ')}`)
    .join('\n');
}

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
    case 'SampleChangesError':
      return {
        kind: 'fields',
        title: 'Please check the highlighted fields',
        message: error.message,
      };
    case 'NotAllowed': {
      // The catalogue's words first, then the server's reason when it gave one (whose step it is,
      // self-approval…): "current user is not allowed" alone leaves the user guessing.
      const why = error.serverMessage;
      const message = why && why !== error.message ? `${error.message}. ${why}` : error.message;
      return { kind: 'notice', title: 'Error Occurred', message };
    }
    case 'EquipmentNotReleased':
      // The production hold (issue 31): the message names every reason.
      return { kind: 'notice', title: 'Equipment not released', message: error.message };
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

/**
 * Shows a failed save: the messages whose field is on `form` go there; whatever no field can
 * carry is a notice (a warning for "nothing to change"). With `onConflict`, a version conflict
 * is a warning and the caller reloads the record while the form keeps what was typed.
 */
export function showSaveError(error: unknown, form?: FormInstance, onConflict?: () => void): void {
  if (onConflict && isApiError(error) && error.errName === 'VersionConflictError') {
    notification.warning({ title: VERSION_CONFLICT.title, description: VERSION_CONFLICT.message });
    onConflict();
    return;
  }
  const known = new Set(form ? Object.keys(form.getFieldsValue() as Record<string, unknown>) : []);
  const fields = formFieldErrors(error);
  const onForm = fields.filter((item) => known.has(String(item.name[0])));
  if (form && onForm.length > 0) form.setFields(onForm);
  const rest = fields.filter((item) => !onForm.includes(item));
  const problem = describeSaveError(error);
  const archived = isApiError(error) && error.errName === 'ArchivedEntryError';
  if (onForm.length > 0 && rest.length === 0 && !archived) return;
  const description = rest.length > 0 ? unplacedLines(rest) : problem.message;
  const show =
    problem.title === NOTHING_TO_CHANGE.title ? notification.warning : notification.error;
  show({ title: problem.title, description });
}
