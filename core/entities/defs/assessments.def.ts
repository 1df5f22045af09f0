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
