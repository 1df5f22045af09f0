import type { RecordDecl } from '../record-decl.ts';

/*
 * The assessments of a facility's cleaning validation (core/assessments/README.md): written by
 * server/modules/change-assessments and server/modules/cleaning-assessments through the one
 * write path.
 */

/**
 * CA-0001: a change assessed before it is made, its change set applied when it is approved
 * (EU GMP Annex 15 §11, change control; ICH Q9, the risk of the change).
 */
export const changeAssessmentsDecl = {
  key: 'changeAssessments',
  label: 'Change assessment',
  table: 'change_assessments',
  domain: 'ChangeAssessment',
  numbered: true,
  controlled: { documentType: 'ChangeAssessment' },
} as const satisfies RecordDecl;

/**
 * FCE-0001: the facility's cleaning assessment, made by its job (worst cases, coverage, gaps)
 * and signed once complete (EU GMP Annex 15 §10, the cleaning validation's scope and rationale).
 * Started by cleaning-assessments.service.ts; its completion is its one write.
 */
export const cleaningAssessmentsDecl = {
  key: 'cleaningAssessments',
  label: 'Cleaning assessment',
  table: 'cleaning_assessments',
  domain: 'CleaningAssessment',
  controlled: { documentType: 'CleaningAssessment' },
} as const satisfies RecordDecl;
