/** The resources and actions of a role's permission map (spec §6). Every action is false by default. */
const CRUD = ['Add', 'Delete', 'Modify', 'Get'] as const;

export const CRUD_RESOURCES = [
  'UserRole',
  'Equipment',
  'EquipmentGroup',
  'Product',
  'ProductGroup',
  'ProductType',
  'MACFormula',
  'RPNFormula',
  'RPNCategory',
  'Variable',
  'DefaultUnit',
  'SwabLocation',
  'ResidueMeasure',
  'Department',
  'CleaningPolicy',
  'SelectionCriteria',
  'EquipmentWiseCleaningLimit',
  'WorstProductOverride',
  'EquipmentWiseWorstProduct',
  'AnalyticalMethod',
  'EquipmentWiseCleaningAgentLimit',
  'API',
  'Production',
  'QualificationTask',
  'Facility',
  'SamplingMethod',
  'CleaningProcedure',
  'Substance',
  'ApiEquipment',
  'ApiProduct',
  'ApiProduction',
  'EquipmentTrain',
] as const;

const EXTRA_ACTIONS: Record<string, readonly string[]> = {
  Equipment: ['Archive'],
  EquipmentGroup: ['Set'],
  Product: ['Archive', 'Set'],
  Production: ['Archive', 'Set', 'Dummy'],
};

const OTHER_RESOURCES = {
  CEReport: ['Generate', 'Get', 'GeneratePDF'],
  AuditLog: ['Get'],
  Master: ['BulkExport', 'BulkImport'],
  ApprovalPolicy: ['Modify', 'Get', 'Sign'],
  FacilityCleaningEvaluation: ['Generate', 'Get'],
  ReportDocument: ['Generate', 'Get', 'Modify'],
  RiskCalculation: ['Get'],
} as const;

/** A resource of the permission map, by name (a guard's refusal is audited under it). */
export type PermissionResource =
  'User' | (typeof CRUD_RESOURCES)[number] | keyof typeof OTHER_RESOURCES;

export const PERMISSION_RESOURCES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  User: ['Add', 'Archive', 'Modify', 'Get'],
  ...Object.fromEntries(
    CRUD_RESOURCES.map((resource) => [resource, [...CRUD, ...(EXTRA_ACTIONS[resource] ?? [])]]),
  ),
  ...OTHER_RESOURCES,
});

export const PERMISSION_RESOURCE_NAMES = Object.keys(PERMISSION_RESOURCES) as PermissionResource[];

/** What only a system administrator does: no resource of the permission map guards it. */
export const ADMIN_RESOURCES = ['FacilityGroup'] as const;

/** What a guard names: a resource of the permission map, or one of the system administrator's. */
export type GuardResource = PermissionResource | (typeof ADMIN_RESOURCES)[number];

export type PermissionMap = Record<string, Record<string, boolean>>;

export function emptyPermissionMap(): PermissionMap {
  return Object.fromEntries(
    Object.entries(PERMISSION_RESOURCES).map(([resource, actions]) => [
      resource,
      Object.fromEntries(actions.map((action) => [action, false])),
    ]),
  );
}

export function fullPermissionMap(): PermissionMap {
  const map = emptyPermissionMap();
  for (const actions of Object.values(map))
    for (const action of Object.keys(actions)) actions[action] = true;
  return map;
}

/** A user with several roles in a facility may do what any of them allows. */
export function mergePermissionMaps(maps: readonly PermissionMap[]): PermissionMap {
  const merged = emptyPermissionMap();
  for (const map of maps) {
    for (const [resource, actions] of Object.entries(map)) {
      const target = merged[resource];
      if (!target) continue;
      for (const [action, allowed] of Object.entries(actions)) {
        if (allowed && action in target) target[action] = true;
      }
    }
  }
  return merged;
}

export function isAllowed(map: PermissionMap, resource: string, action: string): boolean {
  return map[resource]?.[action] === true;
}

/**
 * The actions `wanted` allows that `holder` does not, as 'Resource.Action': what granting `wanted`
 * would give beyond what its grantor holds. Empty when `holder` covers `wanted`.
 */
export function missingPermissions(holder: PermissionMap, wanted: PermissionMap): string[] {
  const missing: string[] = [];
  for (const [resource, actions] of Object.entries(wanted)) {
    for (const [action, allowed] of Object.entries(actions)) {
      if (allowed && !isAllowed(holder, resource, action)) missing.push(`${resource}.${action}`);
    }
  }
  return missing;
}

/** Users whose only roles are Production or Quality Control see a restricted application (spec §6). */
export function isRestrictedUser(roleNames: readonly string[]): boolean {
  return (
    roleNames.length > 0 &&
    roleNames.every((name) => name === 'Production' || name === 'Quality Control')
  );
}
