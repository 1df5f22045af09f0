import {
  auditFieldChanges,
  type AuditFormat,
  type AuditRowLike,
} from '#core/audit/audit-format.ts';
import { ID_FIELDS } from '#core/audit/audit-undeclared.ts';
import { DECLARED_RECORDS } from '#core/entities/defs/index.ts';
import {
  isControlledDocumentType,
  type TSignedDocumentType,
} from '#core/schemas/signatures.schemas.ts';
import { documentTypeRegistration } from './controlled.ts';

export interface PrintedField {
  label: string;
  text: string;
}

/**
 * A version's content as one audit row reads it: the record type's domain, its fields as the
 * new values. Whoever prints it resolves the names the row points to (auditNames), as the audit
 * trail does, so that the PDF and the audit log say the same words.
 */
export function contentAsRow(
  documentType: TSignedDocumentType,
  content: Record<string, unknown>,
): AuditRowLike {
  const def = DECLARED_RECORDS.find(
    (d) => 'controlled' in d && d.controlled.documentType === documentType,
  );
  return {
    domain: def?.domain ?? documentType,
    entityId: null,
    oldValues: null,
    newValues: content,
  };
}

/**
 * The rows whose names the PDF needs: the content's own, and one for each id a nested part of
 * it keeps (an assessment result's limits snapshot), so that a type printing its own content
 * finds those names too.
 */
export function contentNameRows(
  documentType: TSignedDocumentType,
  content: Record<string, unknown>,
): AuditRowLike[] {
  const rows = [contentAsRow(documentType, content)];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        if (key in ID_FIELDS && typeof inner === 'number')
          rows.push({ domain: '', entityId: null, oldValues: null, newValues: { [key]: inner } });
        walk(inner);
      }
  };
  Object.values(content).forEach(walk);
  return rows;
}

/**
 * A version's content as the PDF prints it (Part 11 §11.10(b): a copy in human readable form):
 * every field under its label (a declared one, else words made from its name, never the content
 * key), enums in words, references by the names of the records they point to, quantities with
 * their units, dates in the facility's format, lists and objects as labelled values, never JSON.
 * A type that prints its own content does it its way.
 */
export function printableContent(
  documentType: TSignedDocumentType,
  content: Record<string, unknown>,
  format: AuditFormat,
): PrintedField[] {
  const print = isControlledDocumentType(documentType)
    ? documentTypeRegistration(documentType)?.printContent
    : undefined;
  if (print) return print(content, format);
  return auditFieldChanges(contentAsRow(documentType, content), format).map((change) => ({
    label: change.label,
    text: change.after,
  }));
}
