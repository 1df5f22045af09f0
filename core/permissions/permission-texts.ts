import { PERMISSION_RESOURCES } from './permission-map.ts';

/**
 * Every permission of the catalogue (spec §6) in plain words, keyed by its id 'Resource.Action':
 * the role editor, the audit log and refusals show these, never the id. Most read "See products",
 * "Change equipment"…, made from the resource's noun and the action; the actions that mean
 * something of their own on one resource are written out below.
 */
export interface PermissionText {
  label: string;
  description: string;
}

/** What each resource is called in a sentence, plural, and its heading in the editor. */
export const RESOURCE_NOUNS: Readonly<Record<string, { noun: string; title: string }>> = {
  User: { noun: 'users', title: 'Users' },
  UserRole: { noun: 'roles', title: 'Roles' },
  Equipment: { noun: 'equipment', title: 'Equipment' },
  EquipmentGroup: { noun: 'equipment groups', title: 'Equipment groups' },
  Product: { noun: 'products', title: 'Products' },
  ProductGroup: { noun: 'product groups', title: 'Product groups' },
  ProductType: { noun: 'product types', title: 'Product types' },
  MACFormula: { noun: 'MAC formulas', title: 'MAC formulas' },
  RPNFormula: { noun: 'RPN formulas', title: 'RPN formulas' },
  RPNCategory: { noun: 'RPN categories', title: 'RPN categories' },
  Variable: { noun: 'variables', title: 'Variables' },
  DefaultUnit: { noun: 'default units', title: 'Default units' },
  SwabLocation: { noun: 'swab locations', title: 'Swab locations' },
  ResidueMeasure: { noun: 'residue measures', title: 'Residue measures' },
  Department: { noun: 'departments', title: 'Departments' },
  CleaningPolicy: { noun: 'cleaning policies', title: 'Cleaning policies' },
  SelectionCriteria: { noun: 'selection criteria', title: 'Selection criteria' },
  EquipmentWiseCleaningLimit: {
    noun: 'cleaning limits per equipment',
    title: 'Cleaning limits per equipment',
  },
  WorstProductOverride: { noun: 'worst-product overrides', title: 'Worst-product overrides' },
  EquipmentWiseWorstProduct: {
    noun: 'worst products per equipment',
    title: 'Worst products per equipment',
  },
  AnalyticalMethod: { noun: 'analytical methods', title: 'Analytical methods' },
  EquipmentWiseCleaningAgentLimit: {
    noun: 'cleaning-agent limits per equipment',
    title: 'Cleaning-agent limits per equipment',
  },
  API: { noun: 'APIs', title: 'APIs' },
  Production: { noun: 'productions', title: 'Productions' },
  QualificationTask: { noun: 'qualification tasks', title: 'Qualification tasks' },
  Facility: { noun: 'facilities', title: 'Facilities' },
  SamplingMethod: { noun: 'sampling methods', title: 'Sampling methods' },
  CleaningProcedure: { noun: 'cleaning procedures', title: 'Cleaning procedures' },
  Substance: { noun: 'substances', title: 'Substances' },
  ApiEquipment: { noun: 'API equipment', title: 'API equipment' },
  ApiProduct: { noun: 'API products', title: 'API products' },
  ApiProduction: { noun: 'API productions', title: 'API productions' },
  EquipmentTrain: { noun: 'equipment trains', title: 'Equipment trains' },
  CEReport: { noun: 'cleaning evaluation reports', title: 'Cleaning evaluation reports' },
  AuditLog: { noun: 'the audit log', title: 'Audit log' },
  Master: { noun: 'master data', title: 'Master data workbook' },
  ApprovalPolicy: { noun: 'approval policies', title: 'Approval policies' },
  FacilityCleaningEvaluation: {
    noun: 'facility cleaning evaluations',
    title: 'Facility cleaning evaluations',
  },
  ReportDocument: { noun: 'report documents', title: 'Report documents' },
  RiskCalculation: { noun: 'risk calculations', title: 'Risk calculations' },
};

/** The common actions, for any resource's noun. */
const ACTION_TEXTS: Readonly<Record<string, (noun: string) => PermissionText>> = {
  Get: (noun) => ({
    label: `See ${noun}`,
    description: `Open the list and the details of ${noun}.`,
  }),
  Add: (noun) => ({ label: `Add ${noun}`, description: `Create new ${noun}.` }),
  Modify: (noun) => ({
    label: `Change ${noun}`,
    description: `Edit existing ${noun}, giving a reason for each change.`,
  }),
  Delete: (noun) => ({
    label: `Delete ${noun}`,
    description: `Remove ${noun} that are no longer needed, giving a reason.`,
  }),
  Archive: (noun) => ({
    label: `Archive ${noun}`,
    description: `Move ${noun} to the archived list, and restore them from it.`,
  }),
  Generate: (noun) => ({ label: `Create ${noun}`, description: `Generate new ${noun}.` }),
};

/** Actions whose meaning depends on the resource. */
const OWN_TEXTS: Readonly<Record<string, PermissionText>> = {
  'EquipmentGroup.Set': {
    label: 'Assign equipment to groups',
    description: 'Choose which equipment belongs to each equipment group.',
  },
  'Product.Set': {
    label: 'Assign products',
    description: 'Reserved in the catalogue: no screen asks for it yet.',
  },
  'Production.Set': {
    label: 'Assign equipment to productions',
    description: 'Choose which equipment each production uses.',
  },
  'Production.Dummy': {
    label: 'Use placeholder productions',
    description: 'Reserved in the catalogue: no screen asks for it yet.',
  },
  'CEReport.GeneratePDF': {
    label: 'Download cleaning evaluation reports as PDF',
    description: 'Print a cleaning evaluation report to a PDF file.',
  },
  'AuditLog.Get': {
    label: 'See the audit log',
    description: 'Read who changed what, when and why, and export it.',
  },
  'Master.BulkExport': {
    label: 'Export master data',
    description: 'Download the master data as one workbook.',
  },
  'Master.BulkImport': {
    label: 'Import master data',
    description: 'Load master data from a workbook, adding and changing many records at once.',
  },
  'ApprovalPolicy.Sign': {
    label: 'Approve records',
    description: 'Sign controlled records electronically to approve or refuse them.',
  },
  'RiskCalculation.Get': {
    label: 'See risk calculations',
    description: 'Open the limits, the MAC matrix and the risk calculations and download them.',
  },
};

function textOf(resource: string, action: string): PermissionText {
  const own = OWN_TEXTS[`${resource}.${action}`];
  if (own) return own;
  const noun = RESOURCE_NOUNS[resource]?.noun;
  const make = ACTION_TEXTS[action];
  if (!noun || !make) throw new Error(`No words for the permission ${resource}.${action}`);
  return make(noun);
}

/** Every permission id of the catalogue with its label and description. */
export const PERMISSION_TEXTS: Readonly<Record<string, PermissionText>> = Object.freeze(
  Object.fromEntries(
    Object.entries(PERMISSION_RESOURCES).flatMap(([resource, actions]) =>
      actions.map((action) => [`${resource}.${action}`, textOf(resource, action)]),
    ),
  ),
);

/** A permission id as words: its label, or the id itself for one the catalogue lacks. */
export function permissionLabel(id: string): string {
  return PERMISSION_TEXTS[id]?.label ?? id;
}

/** A resource's heading in the role editor. */
export function resourceTitle(resource: string): string {
  return RESOURCE_NOUNS[resource]?.title ?? resource;
}

/**
 * A permission as a refusal names it: 'the right to change products' (Product.Modify). People
 * read it in error messages, so never the id; one the catalogue lacks is "a right you do not
 * hold".
 */
export function rightText(resource: string, action: string): string {
  const label = PERMISSION_TEXTS[`${resource}.${action}`]?.label;
  if (!label) return 'a right you do not hold';
  const first = label.split(' ')[0]!;
  // 'See the audit log' → 'see the audit log'; 'API …' stays as written.
  const lowered = /[A-Z].*[A-Z]/.test(first)
    ? label
    : label.charAt(0).toLowerCase() + label.slice(1);
  return `the right to ${lowered}`;
}

/** The reason a guard gives for a refusal: 'This needs the right to change products.' */
export function refusalText(resource: string, action: string): string {
  return `This needs ${rightText(resource, action)}`;
}
