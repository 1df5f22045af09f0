import {
  CRUD_RESOURCES,
  emptyPermissionMap,
  fullPermissionMap,
  PERMISSION_RESOURCES,
  type PermissionMap,
} from './permission-map.ts';

/**
 * The roles every facility starts with besides 'Administrator' (issue 30): one per job of a
 * cleaning validation programme, each an ordinary role that the facility may edit or archive.
 * `name` is the role's name; `job` says who it is for. Two names are the spec's own (§6):
 * 'Production' and 'Quality Control', whose holders (when they hold nothing else) are restricted
 * users (isRestrictedUser): they never see administration.
 */
export interface RoleTemplate {
  name: string;
  job: string;
  /** Why the role holds what it holds, in a sentence a site's QA can check against the job. */
  why: string;
  permissions: () => PermissionMap;
}

/**
 * The resources whose records are the facility's master data, limits rules and lifecycle: every
 * Add/Delete/Modify/Get resource but those of access and organisation (roles, departments, the
 * facility itself).
 */
const MASTER_DATA = CRUD_RESOURCES.filter(
  (resource) => !['UserRole', 'Department', 'Facility'].includes(resource),
);

/** A map granting the listed 'Resource.Action' ids (and every action of a bare 'Resource'). */
function grant(...ids: readonly string[]): PermissionMap {
  const map = emptyPermissionMap();
  for (const id of ids) {
    const [resource, action] = id.split('.') as [string, string | undefined];
    const actions = map[resource];
    if (!actions) throw new Error(`No resource ${resource} in the permission map`);
    for (const name of action ? [action] : Object.keys(actions)) {
      if (!(name in actions)) throw new Error(`No action ${id} in the permission map`);
      actions[name] = true;
    }
  }
  return map;
}

/** The Get action of every resource that has one. */
function readEverything(): string[] {
  return Object.entries(PERMISSION_RESOURCES)
    .filter(([, actions]) => actions.includes('Get'))
    .map(([resource]) => `${resource}.Get`);
}

export const ROLE_TEMPLATES: readonly RoleTemplate[] = [
  {
    name: 'Validation engineer',
    job: 'Validation engineer',
    // Owns the cleaning validation programme (EU GMP Annex 15 §10): builds the master data and the
    // limits rules, writes protocols, runs assessments and issues reports. Not approving: the
    // quality unit approves what the engineer wrote (21 CFR 211.22(c), segregation of duties), and
    // the engineer grants nobody access.
    why: 'Builds master data, limits, protocols, assessments and reports; does not approve or manage access.',
    permissions: () =>
      grant(
        ...readEverything().filter((id) => id !== 'UserRole.Get'),
        ...MASTER_DATA,
        'CEReport',
        'AuditLog.Get',
        'Master',
        'ApprovalPolicy.Get',
        'FacilityCleaningEvaluation',
        'ReportDocument',
      ),
  },
  {
    name: 'QA approver',
    job: 'Quality assurance approver',
    // The quality unit reviews and approves (21 CFR 211.22; Part 11 §11.50 signatures): it reads
    // everything including the audit trail and signs, and it decides who signs which document
    // type (approval policies), but it edits no master data or results it then approves.
    why: 'Reads everything and the audit trail, signs and sets the approval policies; edits no master data.',
    permissions: () =>
      grant(...readEverything(), 'ApprovalPolicy', 'CEReport.GeneratePDF', 'Master.BulkExport'),
  },
  {
    name: 'Production',
    job: 'Production operator',
    // Cleans and samples on the line: records the run (cleaning, inspection, samples) against the
    // approved protocol, so it reads the equipment, products, procedures and locations it works
    // on. Verification runs are guarded as QualificationTask. Spec §6 role: a restricted user.
    why: 'Records cleaning runs, inspections and samples on the line; reads what the run needs.',
    permissions: () =>
      grant(
        'QualificationTask.Get',
        'QualificationTask.Add',
        'QualificationTask.Modify',
        'Equipment.Get',
        'EquipmentGroup.Get',
        'Product.Get',
        'Production.Get',
        'SwabLocation.Get',
        'CleaningProcedure.Get',
        'SamplingMethod.Get',
        'Substance.Get',
        'User.Get',
      ),
  },
  {
    name: 'Quality Control',
    job: 'Quality control analyst',
    // The laboratory enters the analytical results of the samples (raw values with their censoring,
    // method, recovery) and their laboratory investigations; it reads the limits the results are
    // judged against and the methods. Spec §6 role: a restricted user.
    why: 'Enters analytical results and laboratory investigations; reads methods, limits and runs.',
    permissions: () =>
      grant(
        'QualificationTask.Get',
        'QualificationTask.Modify',
        'AnalyticalMethod.Get',
        'SamplingMethod.Get',
        'SwabLocation.Get',
        'Equipment.Get',
        'Product.Get',
        'Production.Get',
        'Substance.Get',
        'RiskCalculation.Get',
        'EquipmentWiseCleaningLimit.Get',
        'EquipmentWiseCleaningAgentLimit.Get',
      ),
  },
  {
    name: 'Read-only auditor',
    job: 'Read-only auditor',
    // An inspector or internal auditor reads every record and the audit trail and takes accurate
    // copies (21 CFR 11.10(b), EU GMP Annex 11 §8), and changes nothing: no add, change, delete,
    // generate, import or signature.
    why: 'Reads every record and the audit trail and exports copies; changes nothing.',
    permissions: () => grant(...readEverything(), 'CEReport.GeneratePDF', 'Master.BulkExport'),
  },
  {
    name: 'Facility administrator',
    job: 'Facility administrator',
    // Grants the other roles. Nobody may grant a permission they do not hold (users-admin
    // user-privileges.ts, issue 8), so whoever hands out every template must hold all of it:
    // the full map, like the first-start Administrator. Sites that split access management from
    // GMP work take rights away here and keep one Administrator.
    why: 'Manages users and roles; holds every permission because nobody grants what they lack.',
    permissions: fullPermissionMap,
  },
];

/** The template of a role name, if the role was shipped as one. */
export function roleTemplateNamed(name: string): RoleTemplate | undefined {
  return ROLE_TEMPLATES.find((template) => template.name === name);
}
