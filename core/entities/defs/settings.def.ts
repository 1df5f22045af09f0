import type { RecordDecl } from '../record-decl.ts';

/*
 * The settings of a facility and of the plan: records like any other, written through the one
 * write path (a version checked and bumped, a history row, an audit row) by their modules.
 */

/**
 * One rule document of a facility per kind (and per document type for approval policies):
 * risk goal, verification settings, approval policies, the inspection settings. Each rule's
 * changes are audited under its own domain, which server/modules/facility-rules gives with each
 * write.
 */
export const facilityRulesDecl = {
  key: 'facilityRules',
  label: 'Facility rule',
  table: 'facility_rules',
  domain: 'FacilityRule',
} as const satisfies RecordDecl;

/** The unit new values of one measure start in, per facility (mass, volume, area…). */
export const defaultUnitsDecl = {
  key: 'defaultUnits',
  label: 'Default unit',
  table: 'default_units',
  domain: 'DefaultUnit',
} as const satisfies RecordDecl;

/**
 * The plan's settings, one row per plan (keyed by `plan_id`): password policy, allowed e-mail
 * domains, Active Directory and single sign-on. Each part's changes are audited under its own
 * domain, which its module gives with each write (server/records/plan-record.ts).
 */
export const planSettingsDecl = {
  key: 'planSettings',
  label: 'Plan settings',
  table: 'plan_settings',
  domain: 'PlanSettings',
} as const satisfies RecordDecl;
