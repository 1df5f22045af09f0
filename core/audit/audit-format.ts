import { MODULE_RECORD_DEFS, RECORD_DEFS } from '../entities/defs/index.ts';
import type { EntityDef } from '../entities/entity.ts';
import type { FieldDef } from '../entities/field.ts';
import { labelFromName } from '../entities/labels.ts';
import { contentField, isInternalField } from '../records/content-fields.ts';
import { formatNumber, formatQuantity } from '../units/format-number.ts';

/**
 * Every digit a value was entered with: an audit trail shows what changed, never a rounding that
 * makes two values read alike (21 CFR 11.10(e)).
 */
const AUDIT_DIGITS = 15;
import {
  ID_FIELDS,
  permissionsText,
  UNDECLARED_FIELDS,
  UNDECLARED_SUBJECTS,
} from './audit-undeclared.ts';

/**
 * How an audit row reads to an inspector: the record by its name, each changed field by its
 * label with "old → new", quantities with their units, dates in the facility's format, and
 * references by the names of the records they point to. The audit screen, a record's History
 * and the PDF export all format with this, so they read alike.
 */

export const AUDIT_DEFS: readonly EntityDef[] = [...RECORD_DEFS, ...MODULE_RECORD_DEFS];

/** Names of records by `entityKey:id`, as the server resolves them for a page of rows. */
export type AuditNames = Readonly<Record<string, string>>;

export interface AuditFormat {
  names: AuditNames;
  /** An ISO moment in the facility's zone and formats. */
  formatDateTime: (iso: string) => string;
  /**
   * Significant digits of numbers: a record's printed copy shows the facility's, as its screens
   * do (issue 30); the audit trail every digit a value was entered with (AUDIT_DIGITS).
   */
  digits?: number | undefined;
}

export interface AuditRowLike {
  domain: string;
  entityId: string | null;
  oldValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
}

export interface AuditFieldChange {
  field: string;
  label: string;
  /** '' when the field had no value before (a create) or has none after. */
  before: string;
  after: string;
}

export const EMPTY_VALUE = '—';

/** A reference to a record the plan does not have (any more): never its bare id. */
export const UNKNOWN_RECORD = '(unknown record)';

/** The declared record type whose changes are recorded under `domain`, if there is one. */
export function auditDefOf(domain: string): EntityDef | undefined {
  return AUDIT_DEFS.find((def) => def.domain === domain);
}

/** A controlled record type, by the document type its signatures name. */
export function controlledDefOf(documentType: unknown): EntityDef | undefined {
  return AUDIT_DEFS.find((def) => def.controlled?.documentType === documentType);
}

export function nameKey(entityKey: string, id: number | string): string {
  return `${entityKey}:${id}`;
}

/** The record a row is about: its own type, or, for a signature, the record signed. */
export function auditSubjectRef(row: AuditRowLike): { def: EntityDef; id: number } | null {
  const signed = row.domain === 'ElectronicSignature' ? row.newValues : null;
  const def = signed ? controlledDefOf(signed.documentType) : auditDefOf(row.domain);
  const id = Number(signed ? signed.documentId : row.entityId);
  return def && Number.isInteger(id) && id > 0 ? { def, id } : null;
}

/**
 * A child's parent field keeps the parent's id as a plain number ('equipmentId'); read as a
 * reference to the declared record named like it (equipment, samplingLocations).
 */
function asParentReference(def: EntityDef, field: FieldDef): FieldDef {
  if (typeof def.scope !== 'object' || def.scope.parent !== field.name) return field;
  const stem = field.name.replace(/Id$/, '');
  const parent = AUDIT_DEFS.find((d) => d.key === stem || d.key === `${stem}s`);
  return parent
    ? { name: field.name, label: field.label, kind: 'reference', entity: parent.key }
    : field;
}

function fieldOf(def: EntityDef | undefined, name: string, domain = ''): FieldDef | undefined {
  const field = def?.fields.find((f) => f.name === name) ?? contentField(domain, name);
  const id = ID_FIELDS[name];
  if (id && (!field || field.kind === 'integer')) return field ? { ...id, label: field.label } : id;
  if (field) return def ? asParentReference(def, field) : field;
  return UNDECLARED_FIELDS.find((f) => f.name === name);
}

/**
 * The record a row is about as a name is looked up: a declared record type, or a user or
 * default unit (whose row id may carry more after the number: '5 (surfaceArea)').
 */
function subjectOf(row: AuditRowLike): { key: string; label: string; id: number } | null {
  const declared = auditSubjectRef(row);
  if (declared) return { key: declared.def.key, label: declared.def.label, id: declared.id };
  const other = UNDECLARED_SUBJECTS[row.domain];
  const id = Number(/^\d+/.exec(row.entityId ?? '')?.[0]);
  return other && id > 0 ? { key: other.key, label: other.label, id } : null;
}

/** The parent a child record's rows name in their values (a sampling location's equipment). */
export function parentOf(child: EntityDef): { field: string; entity: string } | null {
  if (typeof child.scope !== 'object') return null;
  const field = fieldOf(child, child.scope.parent);
  return field?.kind === 'reference' ? { field: field.name, entity: field.entity } : null;
}

/** The label of a recorded field: the declared one, else one made from its name. */
export function auditFieldLabel(domain: string, name: string): string {
  const property = /^additionalProperties\.(.+)$/.exec(name);
  if (property) return labelFromName(property[1]!);
  return fieldOf(auditDefOf(domain), name, domain)?.label ?? labelFromName(name);
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isQuantity(value: unknown): value is { value: number; unit: string } {
  const q = value as { value?: unknown; unit?: unknown } | null;
  return (
    typeof q === 'object' &&
    q !== null &&
    typeof q.value === 'number' &&
    typeof q.unit === 'string' &&
    Object.keys(q).length === 2
  );
}

function referenceText(entityKey: string, id: unknown, format: AuditFormat): string {
  if (typeof id !== 'number') return plainText(id, format);
  return format.names[nameKey(entityKey, id)] ?? UNKNOWN_RECORD;
}

/** A value with no declared field: numbers, quantities, dates, lists and objects in words. */
function plainText(value: unknown, format: AuditFormat): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const digits = format.digits ?? AUDIT_DIGITS;
  if (typeof value === 'number') return formatNumber(value, digits);
  if (typeof value === 'string')
    return ISO_MOMENT.test(value) ? format.formatDateTime(value) : value;
  if (isQuantity(value)) return formatQuantity(value.value, value.unit, digits);
  if (Array.isArray(value)) {
    return value.length === 0 ? EMPTY_VALUE : value.map((v) => plainText(v, format)).join('; ');
  }
  if (typeof value === 'object') {
    // A key that keeps an id ('inspectorId') links parts of a record: no reader needs it.
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([key]) => !/^id$|Ids?$/.test(key),
    );
    if (entries.length === 0) return EMPTY_VALUE;
    return entries.map(([k, v]) => `${labelFromName(k)}: ${plainText(v, format)}`).join(', ');
  }
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One field's recorded value as words. */
export function auditValueText(
  field: FieldDef | undefined,
  value: unknown,
  format: AuditFormat,
): string {
  if (!field || value === null || value === undefined) return plainText(value, format);
  switch (field.kind) {
    case 'enum':
      return field.optionLabels?.[String(value)] ?? plainText(value, format);
    case 'text':
      return field.valueLabels?.[String(value)] ?? plainText(value, format);
    case 'reference': {
      const ids = Array.isArray(value) ? value : [value];
      if (ids.length === 0) return EMPTY_VALUE;
      return ids.map((id) => referenceText(field.entity, id, format)).join(', ');
    }
    case 'list': {
      // A part kept as one object (a run's cleaning event) reads as a list of one row.
      if (isPlainObject(value)) return auditValueText(field, [value], format);
      if (!Array.isArray(value)) return plainText(value, format);
      if (value.length === 0) return EMPTY_VALUE;
      return value
        .map((row: unknown) => {
          const cells = (row ?? {}) as Record<string, unknown>;
          return field.of
            .filter((sub) => cells[sub.name] !== undefined && cells[sub.name] !== null)
            .map((sub) => `${sub.label}: ${auditValueText(sub, cells[sub.name], format)}`)
            .join(', ');
        })
        .join('; ');
    }
    default:
      return plainText(value, format);
  }
}

/** Every field a row records, with its value before and after ('' where there was none). */
export function auditFieldChanges(row: AuditRowLike, format: AuditFormat): AuditFieldChange[] {
  const def = auditDefOf(row.domain);
  const before = row.oldValues ?? {};
  const after = row.newValues ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => !isInternalField(row.domain, name),
  );
  const text = (values: Record<string, unknown>, name: string) =>
    name in values
      ? (permissionsText(name, values[name]) ??
        auditValueText(fieldOf(def, name, row.domain), values[name], format))
      : '';
  return (
    names
      .map((name) => ({
        field: name,
        label: auditFieldLabel(row.domain, name),
        before: row.oldValues ? text(before, name) : '',
        after: row.newValues ? text(after, name) : '',
      }))
      // A child's rows repeat its parent on both sides so that the parent's History finds them.
      .filter((change) => !(row.oldValues && row.newValues && change.before === change.after))
  );
}

/**
 * "Minimum batch size: 100 kg → 120 kg", or "Name: Aspirin" when only one side exists. `words`
 * writes "was 100 kg, now 120 kg", for print whose font has no arrow.
 */
export function auditChangeLine(change: AuditFieldChange, words = false): string {
  if (!change.before || !change.after) return `${change.label}: ${change.before || change.after}`;
  return words
    ? `${change.label}: was ${change.before}, now ${change.after}`
    : `${change.label}: ${change.before} → ${change.after}`;
}

/**
 * What a row is about, in words: "Product ‘Aspirin’", "Default unit". A record whose name is not
 * known (a row about something the plan no longer has) is named by its type.
 */
export function auditSubject(row: AuditRowLike, names: AuditNames): string {
  const ref = subjectOf(row);
  const type = ref ? ref.label : labelFromName(row.domain);
  const stored = ref ? names[nameKey(ref.key, ref.id)] : undefined;
  const name = stored && (UNDECLARED_SUBJECTS[row.domain]?.name?.(stored) ?? stored);
  if (name) return `${type} ‘${name}’`;
  // A record whose name is not known is named by its type: a database id means nothing to a
  // reader (issue 30). An id that is itself a code people use ('EQ-3') is kept.
  const id = row.domain === 'ElectronicSignature' ? null : row.entityId;
  return id && !/^\d+\b/.test(id) ? `${type} ${id}` : type;
}

/** An audit domain as a reader names it: 'AnalyticalMethod' → 'Analytical method'. */
export function auditDomainLabel(domain: string): string {
  return auditDefOf(domain)?.label ?? UNDECLARED_SUBJECTS[domain]?.label ?? labelFromName(domain);
}

/** The action as a word a reader knows: 'Update' → 'Update', 'SignatureRefused' → 'Signature refused'. */
export function auditActionLabel(action: string): string {
  return labelFromName(action);
}

/**
 * What happened, in words: "Product ‘Aspirin’ · Update" in the audit log; on a record's own
 * History (`ownDomain`), just "Update", or what happened to a child or a signature of it.
 */
export function auditWhat(
  row: AuditRowLike & { action: string },
  names: AuditNames,
  ownDomain?: string,
): string {
  const action = auditActionLabel(row.action);
  if (row.domain === ownDomain) return action;
  const signed = row.domain === 'ElectronicSignature' ? `Signature: ${action}` : null;
  if (signed && ownDomain) return signed;
  return `${auditSubject(row, names)} · ${signed ?? action}`;
}

/** One line per recorded field: "label: old → new" (or in words, for print). */
export function auditChangeLines(row: AuditRowLike, format: AuditFormat, words = false): string[] {
  return auditFieldChanges(row, format).map((change) => auditChangeLine(change, words));
}

/**
 * The records a row's values point to (references, and the row's own record), by entity key,
 * so that the server resolves their names in one query per type.
 */
export function auditReferences(row: AuditRowLike): Map<string, Set<number>> {
  const wanted = new Map<string, Set<number>>();
  const add = (key: string, id: unknown) => {
    if (typeof id !== 'number' || !Number.isInteger(id)) return;
    const ids = wanted.get(key) ?? new Set<number>();
    ids.add(id);
    wanted.set(key, ids);
  };
  const subject = subjectOf(row);
  if (subject) add(subject.key, subject.id);
  const def = auditDefOf(row.domain);
  for (const values of [row.oldValues, row.newValues]) {
    for (const [name, value] of Object.entries(values ?? {})) {
      const field = fieldOf(def, name, row.domain);
      if (field?.kind === 'reference') {
        for (const id of Array.isArray(value) ? value : [value]) add(field.entity, id);
      }
      if (field?.kind === 'list' && (Array.isArray(value) || isPlainObject(value))) {
        const items = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
        for (const sub of field.of) {
          if (sub.kind !== 'reference') continue;
          for (const item of items) {
            const ids = item?.[sub.name];
            for (const id of Array.isArray(ids) ? ids : [ids]) add(sub.entity, id);
          }
        }
      }
    }
  }
  return wanted;
}

/** The field a record's name is kept in: its name, else its first unique or text field. */
export function nameFieldOf(def: EntityDef): FieldDef | undefined {
  return (
    fieldOf(def, 'name') ??
    (def.unique[0] ? fieldOf(def, def.unique[0]) : undefined) ??
    def.fields.find((field) => field.kind === 'text')
  );
}
