import type { RecordDecl } from '../record-decl.ts';

/*
 * The records of a verification run that are records of their own (core/verification/README.md):
 * written by server/modules/verification/runs through the one write path.
 */

/** DEV-0001: a deviation of a run, closed when QA approves its closure (21 CFR 211.192). */
export const deviationsDecl = {
  key: 'deviations',
  label: 'Deviation',
  table: 'deviations',
  domain: 'Deviation',
  numbered: true,
  controlled: { documentType: 'Deviation' },
} as const satisfies RecordDecl;

/** INV-0001: the laboratory investigation of an out-of-specification result (FDA OOS guidance). */
export const investigationsDecl = {
  key: 'investigations',
  label: 'Investigation',
  table: 'investigations',
  domain: 'Investigation',
  numbered: true,
  controlled: { documentType: 'Investigation' },
} as const satisfies RecordDecl;
