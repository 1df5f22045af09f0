import type { FormInstance } from 'antd';
import { notification } from 'antd';
import { isApiError } from '../../api/api-error.ts';
import { VERSION_CONFLICT } from '../master-data/entity-errors.ts';
import { formFieldErrors } from './field-errors.ts';

/**
 * After a failed save: validation messages go onto their fields; anything else is a notice
 * with the catalogue's title where it has one (spec §8).
 */
export function showSaveError(error: unknown, form?: FormInstance, onConflict?: () => void): void {
  // Someone saved first: the form keeps what was typed, and the caller reloads the version.
  if (isApiError(error) && error.errName === 'VersionConflictError') {
    notification.warning({ title: VERSION_CONFLICT.title, description: VERSION_CONFLICT.message });
    onConflict?.();
    return;
  }
  const fields = formFieldErrors(error);
  if (form && fields.length > 0) {
    form.setFields(fields);
    return;
  }
  if (isApiError(error) && error.errName === 'NothingToChangeError') {
    notification.warning({
      title: 'Nothing to change',
      description:
        'No changes have been made from the current values. Please check all fields and try again.',
    });
    return;
  }
  notification.error({
    title: 'Error Occurred',
    description: error instanceof Error ? error.message : String(error),
  });
}

export function showSaved(what: string): void {
  notification.success({ title: 'Saved', description: `${what} saved.` });
}
