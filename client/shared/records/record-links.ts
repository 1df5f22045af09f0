import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';

/** Controlled records with a screen of their own rather than a declared entity's list. */
const SCREENS: Partial<Record<TControlledDocumentType, (id: number) => string>> = {
  // The policies screen finds the policy's residue-type tab from its id.
  CleaningLimitPolicy: (id) => `/policies?policy=${id}`,
  CleaningInspectionSettings: () => '/policies?tab=inspection',
  CleaningAssessment: (id) => `/cleaning-assessments/${id}`,
  ChangeAssessment: (id) => `/change-control/${id}`,
  // Protocols are a declared record with a screen of their own (not under master data).
  Protocol: (id) => `/protocols?record=${id}`,
  MacFormula: (id) => `/policies/mac-formulas?record=${id}`,
  Study: (id) => `/studies/${id}`,
  Run: (id) => `/runs/${id}`,
  // A deviation is shown on its run's screen (/deviations/:id opens it).
  Deviation: (id) => `/deviations/${id}`,
};

/**
 * Where a controlled record is opened in the client: a declared entity's list with the record
 * open (`?record=`), or the screen of the policies; null when no screen shows it yet.
 */
export function recordLink(documentType: TControlledDocumentType, documentId: number) {
  const screen = SCREENS[documentType];
  if (screen) return screen(documentId);
  const def = ENTITY_DEFS.find(
    (candidate) => (candidate as EntityDef).controlled?.documentType === documentType,
  );
  if (def) return `/master-data/${def.path}?record=${documentId}`;
  return null;
}
