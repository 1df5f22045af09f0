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

/** STU-0001: a study of a protocol's version in force, its outcome its runs' (spec §4). */
export const studiesDecl = {
  key: 'studies',
  label: 'Study',
  table: 'studies',
  domain: 'Study',
  numbered: true,
  controlled: { documentType: 'Study' },
} as const satisfies RecordDecl;

/** Run N of a study: its cleaning event, inspection and verdict, signed when complete. */
export const runsDecl = {
  key: 'study_runs',
  label: 'Run',
  table: 'study_runs',
  domain: 'Run',
  controlled: { documentType: 'Run' },
} as const satisfies RecordDecl;

/** A sample result of a run, judged by the server; a child of its run. */
export const sampleResultsDecl = {
  key: 'sample_results',
  label: 'Sample result',
  table: 'sample_results',
  domain: 'SampleResult',
} as const satisfies RecordDecl;

/** A microbial result of a run, judged against the run's pinned policy; a child of its run. */
export const microbialResultsDecl = {
  key: 'microbial_results',
  label: 'Microbial result',
  table: 'microbial_results',
  domain: 'MicrobialResult',
} as const satisfies RecordDecl;
