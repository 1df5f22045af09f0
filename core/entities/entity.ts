import { z } from 'zod';
import { ZReason, ZVersion } from '../schemas/common.schemas.ts';
import { ZPropertyValues, type PropertyTarget } from '../schemas/additional-properties.schemas.ts';
import type { PropertyError } from '../errors/errors.ts';
import {
  ZIntegrity,
  ZRecordStatus,
  ZSignatureState,
  type TControlledDocumentType,
} from '../schemas/signatures.schemas.ts';
import { ZVersionsInForce } from '../schemas/versions.schemas.ts';
import { fieldSchema, optionalFieldSchema, type FieldDef } from './field.ts';
import { madeOnce } from './made-once.ts';
import type { GuardResource } from '../permissions/permission-map.ts';
import type { DocumentDomain, RecordDomain } from '../audit/audit-events.ts';

/**
 * One declaration per master-data entity: its fields, its path, the permission resource that
 * guards it and the audit domain its changes are recorded under. The server derives its table
 * columns and routes from it, the client its list and form.
 *
 * `D` is the audit domain. A declaration is written `satisfies EntityDef<string>`, since the
 * catalogue's domains are read from the declarations themselves (core/audit/audit-events.ts);
 * everywhere else an EntityDef is one of those, so its domain is a catalogued one and its
 * writes need no cast to be audited.
 */
export interface EntityDef<D extends string = RecordDomain> {
  key: string;
  label: string;
  pluralLabel: string;
  /** The path segment under /api/v2/plans/{plan}/facilities/{facility}/ (spec §7). */
  path: string;
  table: string;
  /** Resource of the permission map (spec §6). */
  resource: GuardResource;
  /** Audit trail domain. */
  domain: D;
  fields: readonly FieldDef[];
  /**
   * A record with no name of its own is called by the name of a record it references: the first
   * of these reference fields that is set (a step's substance: its active, else its
   * intermediate). Where-used lists, the audit trail and the record drawer read it; never an id
   * (21 CFR 211.180(d): records are legible).
   */
  nameFrom?: readonly string[];
  /** Fields whose value is unique in a facility, case-insensitively (text fields). */
  unique: readonly string[];
  /** Fields the list's search looks in. */
  search: readonly string[];
  /** Columns the list shows by default. */
  listColumns: readonly string[];
  description: string;
  /**
   * Actions of `resource` that guard each operation, where they are not the usual Get, Add,
   * Modify and Archive/Delete (resources of spec §6 without Add or Delete, such as ReportDocument).
   */
  actions?: Partial<Record<EntityOperation, string>>;
  /** The key of the list in responses, where the specification names one (else `data`). */
  listKey?: string;
  archivedListKey?: string;
  /**
   * The calls the server answers for edits and archiving (spec §7). Unset: edit and unarchive
   * are POST {id}, archive is PUT {id}/archive. 'put-delete': edit and unarchive are PUT {id}
   * (or `?unarchive`), archive is DELETE {id} (sampling policy). 'post-or-put': as unset, and
   * PUT {id} edits as POST {id} does (selection criteria).
   */
  verbs?: 'put-delete' | 'post-or-put';
  /** False for records that are never archived: the server has no archive or unarchive call. */
  archivable?: false;
  /**
   * Whose records these are: a facility's (unset), a plan's (shared by its facilities, keyed by
   * plan_id), or a parent record's in a facility (`parent`: the declared reference field that
   * names it; unique fields are then unique under the parent).
   */
  scope?: 'plan' | { parent: string };
  /** Which of the facility's additional property definitions its records carry (spec §3). */
  propertyTarget?: PropertyTarget;
  /**
   * Records that take a document (a reference document, a legacy file): create and edit also
   * accept multipart/form-data with the file, and the document routes serve it.
   */
  document?: { label: string };
  /**
   * A controlled record (shared/contracts/signatures-api.md): its versions, status and
   * signatures are kept by server/records; every read carries status, signatureState and
   * versionNumber, and an edit under review is refused. `changeControlled`: its approval moves
   * limits, so a facility with change control puts a version in force only by a change
   * assessment (core/records/change-controlled.ts).
   */
  controlled?: { documentType: TControlledDocumentType; changeControlled?: true };
  /**
   * The app path of the record's own screen when it is not master data (protocols sit under
   * Validation): the master-data menu leaves it out.
   */
  screen?: string;
  /**
   * Rules across fields, on the whole record as it would be saved (after an edit is applied):
   * the problems, each on its field. Pure, so that the form, the API and the import check alike.
   */
  check?: (record: Readonly<Record<string, unknown>>) => PropertyError[];
  /**
   * Members every read carries besides the fields, read by the module that owns them (the moc
   * record's change assessments; server/entities/read-extras.ts). Lists, empty by default.
   */
  readExtras?: Record<string, z.ZodType>;
}

/** The problems `def.check` finds with a record as it would be saved (none without a check). */
export function recordProblems(
  def: EntityDef,
  record: Readonly<Record<string, unknown>>,
): PropertyError[] {
  return def.check ? def.check(record) : [];
}

export type EntityOperation = 'get' | 'add' | 'modify' | 'archive';

/** Equipment, Product and Production have their own Archive action (spec §6); others archive by Delete. */
const ARCHIVE_RESOURCES = ['Equipment', 'Product', 'Production'];

/**
 * Whether a declaration takes a document; if so its domain is one the catalogue gives the
 * document's actions (AttachDocument, ReplaceDocument), as every declaration with `document` is.
 */
export function takesDocument(
  def: EntityDef,
): def is EntityDef<DocumentDomain> & { document: { label: string } } {
  return def.document !== undefined;
}

/** The permission action (spec §6) an operation on an entity needs. */
export function actionOf(def: EntityDef, operation: EntityOperation): string {
  const given = def.actions?.[operation];
  if (given) return given;
  switch (operation) {
    case 'get':
      return 'Get';
    case 'add':
      return 'Add';
    case 'modify':
      return 'Modify';
    case 'archive':
      return ARCHIVE_RESOURCES.includes(def.resource) ? 'Archive' : 'Delete';
  }
}

// Made once per declaration (made-once.ts): making them again for each of some 90 records was
// most of a start's route set-up.
const createSchemaOf = madeOnce(makeCreateSchema);
const editSchemaOf = madeOnce(makeEditSchema);
const recordSchemaOf = madeOnce(makeRecordSchema);

export function createSchema(def: EntityDef) {
  return createSchemaOf(def);
}

/** An edit names what it changes, the version it was made from, and why. */
export function editSchema(def: EntityDef) {
  return editSchemaOf(def);
}

export function recordSchema(def: EntityDef) {
  return recordSchemaOf(def);
}

function makeCreateSchema(def: EntityDef) {
  return z
    .object({
      ...Object.fromEntries(def.fields.map((f) => [f.name, fieldSchema(f)])),
      ...propertiesOf(def, ZPropertyValues.optional()),
    })
    .strict();
}

function makeEditSchema(def: EntityDef) {
  const fields = Object.fromEntries(def.fields.map((f) => [f.name, optionalFieldSchema(f)]));
  const body = z
    .object({
      ...fields,
      ...propertiesOf(def, ZPropertyValues.optional()),
      reason: ZReason,
      version: ZVersion.optional(),
      ...(def.archivable === false ? {} : { unArchive: z.boolean().optional() }),
    })
    .strict();
  // With PUT {id}, `?unarchive` restores without a version: the server asks for it after the query.
  if (def.verbs === 'put-delete') return body;
  return body.refine((edit) => edit.unArchive === true || edit.version !== undefined, {
    path: ['version'],
    message: 'The version the edit was made from is required',
  });
}

function makeRecordSchema(def: EntityDef) {
  return z.object({
    id: z.number().int(),
    ...(def.scope === 'plan' ? { planId: z.number().int() } : { facilityId: z.number().int() }),
    ...Object.fromEntries(def.fields.map((f) => [f.name, optionalFieldSchema(f)])),
    ...propertiesOf(def, ZPropertyValues),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    archivedAt: z.string().nullable(),
    archiveReason: z.string().nullable(),
    historyStartsAt: z
      .string()
      .optional()
      .describe(
        'On an asOf read of a moment before the record’s history began (a record made before versions were kept): the record as first kept, at this moment (UTC)',
      ),
    ...(def.controlled ? CONTROLLED_READ : {}),
    ...(def.readExtras ?? {}),
  });
}

/**
 * What every read of a controlled record carries besides its fields (and its `version`): the
 * state of the version read (the one in force on a plain read, the draft with version=draft).
 */
const CONTROLLED_READ = {
  status: ZRecordStatus,
  signatureState: ZSignatureState.nullable(),
  versionNumber: z.number().int().positive(),
  ...ZVersionsInForce.shape,
  ...ZIntegrity,
};

/** The `additionalProperties` member of an entity that carries the facility's definitions. */
function propertiesOf(def: EntityDef, schema: z.ZodType): Record<string, z.ZodType> {
  return def.propertyTarget
    ? {
        additionalProperties: schema.describe(
          `Values of the facility's additional ${def.propertyTarget} properties, by key`,
        ),
      }
    : {};
}
