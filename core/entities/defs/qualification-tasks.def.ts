import type { RecordDecl } from '../record-decl.ts';

/**
 * A qualification task: a gap a cleaning assessment found, decided once (accepted or dismissed)
 * by a signed decision (core/assessments/README.md); written by
 * server/modules/cleaning-assessments through the one write path.
 */
export const qualificationTasksDecl = {
  key: 'qualification_tasks',
  label: 'Qualification task',
  table: 'qualification_tasks',
  domain: 'QualificationTask',
} as const satisfies RecordDecl;
