import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/**
 * The resources (spec §6) guarding the declared master-data entities. Listed here rather than
 * read from ENTITY_DEFS because the navigation is in the shell's chunk and the declarations
 * bring their validation code with them; a test keeps this list in step with ENTITY_DEFS.
 */
export const MASTER_DATA_RESOURCES = [
  'API',
  'Product',
  'ProductGroup',
  'ProductType',
  'Equipment',
  'EquipmentGroup',
  'Production',
  'EquipmentTrain',
  'ApiProduction',
  'ApiEquipment',
  'ApiProduct',
  'Substance',
  'CleaningProcedure',
  'AnalyticalMethod',
  'Variable',
  'RPNCategory',
  'RPNFormula',
  'MACFormula',
  'SelectionCriteria',
  'SamplingMethod',
  'ReportDocument',
  'QualificationTask',
] as const;

/** The facility's MAC formulas, beside its policies: MACFormula Get (spec §6). */
export function canSeeMacFormulas(permissions: TMyPermissions): boolean {
  return permissions.facility.MACFormula?.Get === true;
}

/** The workbook page (import / export) is for users with Master BulkExport or BulkImport. */
export function canUseMasterWorkbook(permissions: TMyPermissions): boolean {
  const master = permissions.facility.Master;
  return master?.BulkExport === true || master?.BulkImport === true;
}

/**
 * Master data is in the navigation when the user may list at least one declared entity, or
 * export or import the facility's workbook.
 */
export function canSeeMasterData(permissions: TMyPermissions): boolean {
  return (
    MASTER_DATA_RESOURCES.some((resource) => permissions.facility[resource]?.Get === true) ||
    canUseMasterWorkbook(permissions)
  );
}
