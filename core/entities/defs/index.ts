import type { EntityDef } from '../entity.ts';
import type { RecordDecl } from '../record-decl.ts';
import { activesDef } from './actives.def.ts';
import { analyticalMethodsDef, cleaningAgentsDef, cleaningProceduresDef } from './cleaning.def.ts';
import { equipmentDef } from './equipment.def.ts';
import { equipmentTrainsDef } from './equipment-trains.def.ts';
import { equipmentGroupsDef, productGroupsDef } from './groups.def.ts';
import { productionsDef } from './productions.def.ts';
import { productsDef } from './products.def.ts';
import { intermediatesDef, nitrosaminesDef, variablesDef } from './substances.def.ts';
import {
  documentVersionsDef,
  legacyDocumentsDef,
  mocRecordsDef,
  sopsDef,
} from './documents.def.ts';
import { productTypesDef } from './product-types.def.ts';
import { rpnCategoriesDef, rpnFormulasDef, selectionCriteriaDef } from './risk.def.ts';
import { microbialMethodsDef, samplingTypesDef } from './sampling.def.ts';
import { SAMPLING_POLICY_DEFS } from './sampling-policy.def.ts';
import { departmentsDef } from './departments.def.ts';
import { operatorsDef } from './operators.def.ts';
import { rolesDef } from './roles.def.ts';
import { samplesDef } from './samples.def.ts';
import { samplingLocationsDef } from './sampling-locations.def.ts';
import { historicalStudiesDef } from './historical-studies.def.ts';
import { historicalStudyResultsDef } from './historical-study-results.def.ts';
import { protocolsDef } from './protocols.def.ts';
import { customReportsDef } from './custom-reports.def.ts';
import { resultsImportMappingsDef } from './results-import-mappings.def.ts';
import { changeAssessmentsDecl, cleaningAssessmentsDecl } from './assessments.def.ts';
import { reportsDecl } from './reports.def.ts';
import { defaultUnitsDecl, facilityRulesDecl, planSettingsDecl } from './settings.def.ts';
import { facilitiesDef, facilityGroupsDef } from './facilities.def.ts';
import {
  deviationsDecl,
  investigationsDecl,
  microbialResultsDecl,
  runsDecl,
  sampleResultsDecl,
  studiesDecl,
} from './verification.def.ts';
import { cleaningLimitPoliciesDecl } from './policies.def.ts';
import { roomGradesDecl } from './room-grades.def.ts';
import { webhooksDecl } from './webhooks.def.ts';
import { qualificationTasksDecl } from './qualification-tasks.def.ts';
import { hbelMonographsDecl } from './hbel.def.ts';
import { macFormulasDef } from './mac-formulas.def.ts';
import {
  apiProcessStepsDef,
  apiProductionsDef,
  apiStepSubstancesDef,
} from './api-productions.def.ts';

export { activesDef, equipmentDef, equipmentTrainsDef, productionsDef, productsDef };
export { equipmentGroupsDef, samplingTypesDef, selectionCriteriaDef };
export { historicalStudiesDef, macFormulasDef, productGroupsDef, protocolsDef };
export { apiProcessStepsDef, apiProductionsDef, apiStepSubstancesDef };

const entityDefs = [
  activesDef,
  productsDef,
  productGroupsDef,
  equipmentDef,
  equipmentGroupsDef,
  equipmentTrainsDef,
  productionsDef,
  apiProductionsDef,
  apiProcessStepsDef,
  apiStepSubstancesDef,
  cleaningAgentsDef,
  cleaningProceduresDef,
  analyticalMethodsDef,
  nitrosaminesDef,
  intermediatesDef,
  variablesDef,
  productTypesDef,
  rpnCategoriesDef,
  rpnFormulasDef,
  macFormulasDef,
  selectionCriteriaDef,
  samplingTypesDef,
  microbialMethodsDef,
  sopsDef,
  documentVersionsDef,
  legacyDocumentsDef,
  mocRecordsDef,
  historicalStudiesDef,
  historicalStudyResultsDef,
  protocolsDef,
] as const;

export const ENTITY_DEFS: readonly EntityDef[] = entityDefs;

/** Every declared record the server serves: the master data, and the sampling policy's records. */
const recordDefs = [
  ...entityDefs,
  ...SAMPLING_POLICY_DEFS,
  customReportsDef,
  resultsImportMappingsDef,
] as const;
export const RECORD_DEFS: readonly EntityDef[] = recordDefs;

/**
 * Declared records whose calls are their module's own (paths of the spec outside the facility
 * routes); the store writes them as it writes the others.
 */
const moduleRecordDefs = [
  departmentsDef,
  operatorsDef,
  samplesDef,
  samplingLocationsDef,
  rolesDef,
  facilityGroupsDef,
  facilitiesDef,
] as const;
export const MODULE_RECORD_DEFS: readonly EntityDef[] = moduleRecordDefs;

/**
 * Lifecycle records: written through the same write path, their calls and reads their module's
 * own (core/entities/record-decl.ts).
 */
const lifecycleRecordDecls = [
  changeAssessmentsDecl,
  cleaningAssessmentsDecl,
  reportsDecl,
  facilityRulesDecl,
  defaultUnitsDecl,
  planSettingsDecl,
  deviationsDecl,
  investigationsDecl,
  cleaningLimitPoliciesDecl,
  roomGradesDecl,
  studiesDecl,
  runsDecl,
  sampleResultsDecl,
  microbialResultsDecl,
  qualificationTasksDecl,
  hbelMonographsDecl,
  webhooksDecl,
] as const;
export const LIFECYCLE_RECORD_DECLS: readonly RecordDecl[] = lifecycleRecordDecls;

/**
 * Every declaration, as the compiler knows each (its literal domain): the audit catalogue
 * (core/audit/audit-events.ts) takes its record domains from here.
 */
export const DECLARED_RECORDS = [
  ...recordDefs,
  ...moduleRecordDefs,
  ...lifecycleRecordDecls,
] as const;
export type DeclaredRecord = (typeof DECLARED_RECORDS)[number];

export function entityDef(key: string): EntityDef {
  const def = [...RECORD_DEFS, ...MODULE_RECORD_DEFS].find((d) => d.key === key);
  if (!def) throw new Error(`unknown entity ${key}`);
  return def;
}
