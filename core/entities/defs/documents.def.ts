import { z } from 'zod';
import { ZChangeAssessmentLink } from '#core/schemas/change-assessments.schemas.ts';
import { DOCUMENT_TYPES, isoDateProblem } from '#core/schemas/documents.schemas.ts';
import type { EntityDef } from '../entity.ts';

/*
 * Spec §6 has no resource of its own for SOPs, document records or change control. Documents of
 * the validation programme fall under ReportDocument, whose actions are Generate, Get and
 * Modify: creating a record is Generate, editing and archiving it Modify.
 */
const DOCUMENT_ACTIONS = { get: 'Get', add: 'Generate', modify: 'Modify', archive: 'Modify' };

const DATE = { kind: 'text', max: 10, check: isoDateProblem } as const;

/** A standard operating procedure that cleaning procedures follow. */
export const sopsDef = {
  key: 'sops',
  label: 'SOP',
  pluralLabel: 'SOPs',
  path: 'sop',
  table: 'sops',
  resource: 'CleaningProcedure',
  domain: 'SOP',
  description:
    'Standard operating procedures: number, title, revision, effective date and next periodic review date (YYYY-MM-DD), owning department, and the cleaning procedures that follow the SOP.',
  fields: [
    { name: 'sopNumber', label: 'SOP number', kind: 'text', max: 100, required: true },
    { name: 'name', label: 'Title', kind: 'text', required: true },
    { name: 'revision', label: 'Revision', kind: 'text', max: 30 },
    { name: 'effectiveDate', label: 'Effective date', ...DATE },
    { name: 'reviewDate', label: 'Next review', ...DATE },
    { name: 'department', label: 'Owning department', kind: 'text', max: 200 },
    {
      name: 'cleaningProcedureIds',
      label: 'Cleaning procedures',
      kind: 'reference',
      entity: 'cleaningProcedures',
      multiple: true,
    },
    { name: 'description', label: 'Scope', kind: 'longText' },
  ],
  unique: ['sopNumber'],
  search: ['sopNumber', 'name'],
  listColumns: ['sopNumber', 'name', 'revision', 'effectiveDate'],
  controlled: { documentType: 'SOP' },
} as const satisfies EntityDef<string>;

/** The register of controlled documents and the version of each that is in force. */
export const documentVersionsDef = {
  key: 'documentVersions',
  label: 'Document version',
  pluralLabel: 'Document versions',
  path: 'document-version',
  table: 'document_versions',
  resource: 'ReportDocument',
  actions: DOCUMENT_ACTIONS,
  domain: 'DocumentVersion',
  description:
    'The document register: one record per controlled document (protocol, report, assessment…) with its current version. It is a controlled record: its status (Being Built, Being reviewed, Being approved, Active, Deprecated), signing state and version number change only by signatures; nobody sets the status by hand. Generating report documents creates one; modifying report documents edits and archives it.',
  fields: [
    { name: 'documentNumber', label: 'Document number', kind: 'text', max: 100, required: true },
    { name: 'name', label: 'Title', kind: 'text', required: true },
    {
      name: 'documentType',
      label: 'Document type',
      kind: 'enum',
      required: true,
      options: DOCUMENT_TYPES,
    },
    { name: 'currentVersion', label: 'Current version', kind: 'text', max: 30, required: true },
    { name: 'effectiveDate', label: 'Effective date', ...DATE },
    { name: 'changeSummary', label: 'Change summary', kind: 'longText' },
  ],
  unique: ['documentNumber'],
  search: ['documentNumber', 'name'],
  listColumns: ['documentNumber', 'name', 'documentType', 'currentVersion'],
  controlled: { documentType: 'DocumentVersion' },
} as const satisfies EntityDef<string>;

/** A document from before the platform (paper or another system), kept findable. */
export const legacyDocumentsDef = {
  key: 'legacyDocuments',
  label: 'Legacy document',
  pluralLabel: 'Legacy documents',
  path: 'legacy-documents',
  table: 'legacy_documents',
  resource: 'ReportDocument',
  actions: DOCUMENT_ACTIONS,
  domain: 'LegacyDocument',
  document: { label: 'File' },
  description:
    'Legacy documents: validation documents from before the platform, recorded by number, title, category, revision, issue date, the file’s name and type and where the original is kept. The file itself can be uploaded with the record; its name and type then fill the file name and file type.',
  fields: [
    { name: 'documentNumber', label: 'Document number', kind: 'text', max: 100, required: true },
    { name: 'name', label: 'Title', kind: 'text', required: true },
    {
      name: 'category',
      label: 'Category',
      kind: 'enum',
      options: ['Protocol', 'Report', 'Study', 'Assessment', 'SOP', 'Other'],
    },
    { name: 'revision', label: 'Revision', kind: 'text', max: 30 },
    { name: 'issuedDate', label: 'Issued', ...DATE },
    { name: 'fileName', label: 'File name', kind: 'text', max: 255 },
    {
      name: 'fileType',
      label: 'File type',
      kind: 'enum',
      options: ['pdf', 'docx', 'rtf', 'txt', 'png', 'jpeg', 'doc'],
    },
    {
      name: 'storageLocation',
      label: 'Where the original is kept',
      kind: 'longText',
      max: 1000,
      description: 'Archive room and box, or the address in the document management system.',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['documentNumber'],
  search: ['documentNumber', 'name', 'fileName'],
  listColumns: ['documentNumber', 'name', 'category', 'revision', 'issuedDate'],
} as const satisfies EntityDef<string>;

/** A change-of-control (management of change) record: the change itself, not its assessment. */
export const mocRecordsDef = {
  key: 'mocRecords',
  label: 'Change-of-control record',
  pluralLabel: 'Change-of-control records',
  path: 'moc',
  table: 'moc_records',
  resource: 'ReportDocument',
  actions: DOCUMENT_ACTIONS,
  domain: 'MOC',
  description:
    'Change-of-control (MOC) records: the change-control number, title, type of change, status, dates (YYYY-MM-DD), the products and equipment it touches, and its effect on cleaning validation (new worst case, changed limits, revalidation). The change assessment that evaluates it against the current cleaning assessment is a separate record.',
  fields: [
    { name: 'mocNumber', label: 'Change control number', kind: 'text', max: 100, required: true },
    { name: 'name', label: 'Title', kind: 'text', required: true },
    {
      name: 'changeType',
      label: 'Type of change',
      kind: 'enum',
      required: true,
      options: [
        'New product',
        'Product change',
        'New equipment',
        'Equipment change',
        'Batch size change',
        'Cleaning procedure change',
        'Cleaning agent change',
        'Process change',
        'Other',
      ],
    },
    {
      name: 'status',
      label: 'Status',
      kind: 'enum',
      required: true,
      options: ['Open', 'Under assessment', 'Approved', 'Implemented', 'Closed', 'Cancelled'],
    },
    { name: 'initiatedDate', label: 'Initiated', ...DATE },
    { name: 'targetDate', label: 'Target date', ...DATE },
    {
      name: 'productIds',
      label: 'Products',
      kind: 'reference',
      entity: 'products',
      multiple: true,
    },
    {
      name: 'equipmentIds',
      label: 'Equipment',
      kind: 'reference',
      entity: 'equipment',
      multiple: true,
    },
    { name: 'requiresRevalidation', label: 'Requires revalidation', kind: 'boolean' },
    { name: 'impactOnCleaning', label: 'Effect on cleaning validation', kind: 'longText' },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['mocNumber'],
  search: ['mocNumber', 'name'],
  listColumns: ['mocNumber', 'name', 'changeType', 'status', 'targetDate'],
  // The change assessments that evaluate it (server/modules/change-assessments/moc-link.ts).
  readExtras: { changeAssessments: z.array(ZChangeAssessmentLink) },
} as const satisfies EntityDef<string>;
