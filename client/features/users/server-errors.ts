import type { FormInstance } from 'antd';
import { notification } from 'antd';
import { fieldErrorsOf, isApiError } from '../../api/api-error.ts';

/** 'facilityRoles[0].roleIds' → ['facilityRoles', 0, 'roleIds'], antd's name path. */
export function namePath(property: string): (string | number)[] {
  return property
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

const TITLES: Record<string, string> = {
  ArchivedEntryError: 'Data Archived',
  NothingToChangeError: 'Nothing to change',
  VersionConflictError: 'Changed by someone else',
  DuplicateEntryError: 'Duplicate entry',
  DataValidationError: 'Please check the form',
};

/**
 * Puts the server's per-property messages on the form's fields (spec §5: DataValidationError and
 * DuplicateEntryError map onto the property) and shows what no field can carry as a notice.
 */
export function showServerError(error: unknown, form?: FormInstance): void {
  const known = new Set(form ? Object.keys(form.getFieldsValue() as Record<string, unknown>) : []);
  const fields = fieldErrorsOf(error).map((item) => ({ ...item, path: namePath(item.name) }));
  const onFields = fields.filter((item) => known.has(String(item.path[0])));
  if (form && onFields.length > 0) {
    form.setFields(onFields.map((item) => ({ name: item.path, errors: item.errors })));
  }
  const rest = fields.filter((item) => !onFields.includes(item));
  if (onFields.length > 0 && rest.length === 0 && isApiError(error)) {
    if (error.errName !== 'ArchivedEntryError') return;
  }
  const title = isApiError(error)
    ? (TITLES[error.errName ?? ''] ?? 'Error Occurred')
    : 'Error Occurred';
  const description =
    rest.length > 0
      ? rest.map((item) => `${item.name}: ${item.errors.join(', ')}`).join('\n')
      : error instanceof Error
        ? error.message
        : String(error);
  notification.error({ title, description });
}
