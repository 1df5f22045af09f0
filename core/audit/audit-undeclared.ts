import { DOCUMENT_TYPE_LABELS } from '../labels/enum-labels.ts';
import { SIGNATURE_STATE_LABELS, STATUS_LABELS } from '../records/status-labels.ts';
import { SIGNED_DOCUMENT_TYPES } from '../schemas/signatures.schemas.ts';
import type { FieldDef } from '../entities/field.ts';
import { permissionLabel } from '../permissions/permission-texts.ts';
import { MEASURES } from '../units/measures.ts';

/**
 * What audit rows name that has no declared record type (core/entities/defs): users and default
 * units as subjects, and the reference fields the account, role and facility screens record, so
 * that a row reads "User ‘Ada Lovelace’" and "Department: Quality", never "#5".
 */

/** Subjects by audit domain: the key their names are resolved under, and how a name reads. */
export const UNDECLARED_SUBJECTS: Readonly<
  Record<string, { key: string; label: string; name?: (stored: string) => string }>
> = {
  User: { key: 'users', label: 'User' },
  EquipmentImage: { key: 'equipmentImages', label: 'Equipment picture' },
  ServiceAccount: { key: 'serviceAccounts', label: 'Service account' },
  // Lifecycle records (core/entities/defs, LIFECYCLE_RECORD_DECLS) by their number or title.
  ReportDocument: { key: 'reports', label: 'Report' },
  ChangeAssessment: { key: 'changeAssessments', label: 'Change assessment' },
  CleaningAssessment: { key: 'cleaningAssessments', label: 'Cleaning assessment' },
  Study: { key: 'studies', label: 'Study' },
  Run: { key: 'runs', label: 'Run' },
  SampleResult: { key: 'sampleResults', label: 'Sample' },
  Deviation: { key: 'deviations', label: 'Deviation' },
  DefaultUnit: {
    key: 'defaultUnits',
    label: 'Default unit',
    // Stored as the measure's key ('surfaceArea'); read as the measure ('surface area').
    name: (stored) => MEASURES[stored as keyof typeof MEASURES]?.label ?? stored,
  },
};

const facility = { label: 'Facility', kind: 'reference', entity: 'facilities' } as const;
const roles = { label: 'Roles', kind: 'reference', entity: 'roles', multiple: true } as const;

/**
 * The codes of a controlled record's workflow ('BeingApproved') and of its signature state
 * ('PendingApproval') in the words the record screen shows (spec §4); only the codes, so that a
 * status of another kind that is already a word ('Approved' of a run) stays as it is.
 */
const WORKFLOW_CODE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({ ...STATUS_LABELS, ...SIGNATURE_STATE_LABELS }).filter(([code]) =>
    /[a-z][A-Z]/.test(code),
  ),
);

/** Reference fields by name, for rows whose domain declares none (accounts, refusals). */
export const UNDECLARED_FIELDS: readonly FieldDef[] = [
  // A signature's rows record the record's status and signature state as codes (issue 30).
  { name: 'status', label: 'Status', kind: 'text', valueLabels: WORKFLOW_CODE_LABELS },
  {
    name: 'signatureState',
    label: 'Signature state',
    kind: 'text',
    valueLabels: WORKFLOW_CODE_LABELS,
  },
  { name: 'departmentId', label: 'Department', kind: 'reference', entity: 'departments' },
  { name: 'facilityId', ...facility },
  { name: 'facility', ...facility },
  { name: 'grantedTo', label: 'Granted to', kind: 'reference', entity: 'users' },
  { name: 'userId', label: 'User', kind: 'reference', entity: 'users' },
  { name: 'roleId', label: 'Role', kind: 'reference', entity: 'roles' },
  { name: 'roleIds', ...roles },
  // A service account's owner and its API tokens (issue 33), by name.
  { name: 'ownerId', label: 'Owner', kind: 'reference', entity: 'users' },
  { name: 'tokenId', label: 'API token', kind: 'reference', entity: 'apiTokens' },
  {
    name: 'tokensRevoked',
    label: 'API tokens revoked',
    kind: 'reference',
    entity: 'apiTokens',
    multiple: true,
  },
  {
    name: 'documentType',
    label: 'Document type',
    kind: 'enum',
    options: SIGNED_DOCUMENT_TYPES,
    optionLabels: DOCUMENT_TYPE_LABELS,
  },
  {
    name: 'facilityRoles',
    label: 'Roles by facility',
    kind: 'list',
    of: [
      { name: 'facilityId', ...facility },
      { name: 'roleIds', ...roles },
      {
        name: 'documentType',
        label: 'Document type',
        kind: 'enum',
        options: SIGNED_DOCUMENT_TYPES,
        optionLabels: DOCUMENT_TYPE_LABELS,
      },
    ],
  },
];

/**
 * Fields that keep another record's id as a plain number (a record type the declarations do not
 * reference, such as a picture or a limits snapshot): the audit trail and the signed PDFs name
 * the record, never its id (issue 30). A declared field of the same name keeps its own label.
 */
export const ID_FIELDS: Readonly<Record<string, FieldDef>> = {
  imageId: {
    name: 'imageId',
    label: 'Equipment picture',
    kind: 'reference',
    entity: 'equipmentImages',
  },
  limitsSnapshotId: {
    name: 'limitsSnapshotId',
    label: 'Limits snapshot',
    kind: 'reference',
    entity: 'limitsSnapshots',
  },
  assessedBy: { name: 'assessedBy', label: 'Assessed by', kind: 'reference', entity: 'users' },
  mocId: {
    name: 'mocId',
    label: 'Change-of-control record',
    kind: 'reference',
    entity: 'mocRecords',
  },
};

/** Fields that hold permission ids ('Equipment.Delete'): a role's changes, a refusal's missing. */
const PERMISSION_FIELDS = new Set(['permissions', 'missing']);

/**
 * Permission ids by their labels: ['Equipment.Delete'] → 'Delete equipment', and a role's
 * changes { 'Product.Get': true } → 'See products: Yes'. Undefined for a field that holds none.
 */
export function permissionsText(name: string, value: unknown): string | undefined {
  if (!PERMISSION_FIELDS.has(name) || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value))
    return value.every((id) => typeof id === 'string')
      ? value.map((id: string) => permissionLabel(id)).join(', ')
      : undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  // A whole map nests actions under resources: it reads as what it allows.
  if (entries.every(([, actions]) => actions !== null && typeof actions === 'object'))
    return entries
      .flatMap(([resource, actions]) =>
        Object.entries(actions as Record<string, unknown>)
          .filter(([, on]) => on === true)
          .map(([action]) => permissionLabel(`${resource}.${action}`)),
      )
      .join(', ');
  // A role's changes are flat: each id granted (Yes) or taken away (No).
  if (!entries.every(([, allowed]) => typeof allowed === 'boolean')) return undefined;
  return entries.map(([id, on]) => `${permissionLabel(id)}: ${on ? 'Yes' : 'No'}`).join(', ');
}
