import type { FieldDef } from '../entities/field.ts';
import {
  INVESTIGATION_OUTCOME_LABELS,
  INVESTIGATION_OUTCOMES,
  INVESTIGATION_PHASES,
  LABORATORY_CAUSE_LABELS,
  LABORATORY_CAUSES,
} from '../schemas/investigation.schemas.ts';
import {
  DEVIATION_KIND_LABELS,
  DEVIATION_KINDS,
  MICROBIAL_KIND_LABELS,
  MICROBIAL_KINDS,
  RELEASE_FLAGS,
  RELEASE_LABELS,
} from '../schemas/verification.schemas.ts';
import { FAILED_RUN_POLICY_LABELS } from '../verification/study-outcome.ts';
import { REPORT_KIND_INFO, REPORT_KINDS } from '../schemas/reports.schemas.ts';

/*
 * The fields of the lifecycle records (core/entities/record-decl.ts), which have no entity
 * definition of their own: the labels and words their signed content and their audit rows are
 * read with (Part 11 §11.10(b), a copy "in human readable form"; issue 30). Keyed by audit
 * domain. A key a record keeps only to link its parts (a study's origin id) is listed in
 * INTERNAL_FIELDS and printed nowhere.
 */

const text = (name: string, label: string): FieldDef => ({ name, label, kind: 'text' });
const longText = (name: string, label: string): FieldDef => ({ name, label, kind: 'longText' });
const num = (name: string, label: string): FieldDef => ({ name, label, kind: 'number' });
const whole = (name: string, label: string): FieldDef => ({ name, label, kind: 'integer' });
const yesNo = (name: string, label: string): FieldDef => ({ name, label, kind: 'boolean' });
const ref = (name: string, label: string, entity: string, multiple = false): FieldDef =>
  multiple
    ? { name, label, kind: 'reference', entity, multiple: true }
    : { name, label, kind: 'reference', entity };
const choice = (
  name: string,
  label: string,
  options: readonly string[],
  optionLabels: Readonly<Record<string, string>>,
): FieldDef => ({ name, label, kind: 'enum', options, optionLabels });

/** A reported result as a run, a deviation or an investigation quotes it. */
const resultQuote: readonly FieldDef[] = [
  text('location', 'Sampling location'),
  text('batchNumber', 'Sample number'),
  text('reported', 'Reported'),
  num('percentOfLimit', 'Percent of limit'),
];

/** A generated report, signed as a document (its files by their hashes). */
const reportFields: readonly FieldDef[] = [
  text('number', 'Number'),
  choice(
    'kind',
    'Kind of report',
    REPORT_KINDS,
    Object.fromEntries(REPORT_KINDS.map((kind) => [kind, REPORT_KIND_INFO[kind].label])),
  ),
  text('title', 'Title'),
  { name: 'parameters', label: 'Parameters', kind: 'json' },
  text('asOf', 'As of'),
  text('dataHash', 'Data hash (SHA-256)'),
  {
    name: 'files',
    label: 'Files',
    kind: 'list',
    of: [text('format', 'Format'), text('sha256', 'SHA-256')],
  },
];

export const CONTENT_FIELDS: Readonly<Record<string, readonly FieldDef[]>> = {
  ReportDocument: reportFields,
  AnnualSummary: reportFields,
  Run: [
    text('study', 'Study'),
    whole('sequence', 'Run'),
    {
      name: 'event',
      label: 'Cleaning',
      kind: 'list',
      of: [
        text('startedAt', 'Started'),
        text('endedAt', 'Ended'),
        ref('operatorIds', 'Operators', 'operators', true),
        ref('cleaningProcedureId', 'Cleaning procedure', 'cleaningProcedures'),
        text('agentLot', 'Cleaning agent lot'),
        text('productBatch', 'Product batch'),
        num('dirtyHoldHours', 'Dirty hold time (h)'),
        num('cleanHoldHours', 'Clean hold time (h)'),
        text('visualResult', 'Visual inspection'),
        longText('visualNotes', 'Visual inspection notes'),
      ],
    },
    whole('inspectionSettingsVersion', 'Inspection settings version'),
    { name: 'inspection', label: 'Inspection', kind: 'json' },
    text('verdict', 'Verdict'),
    choice('releaseFlag', 'Release', RELEASE_FLAGS, RELEASE_LABELS),
    {
      name: 'results',
      label: 'Sample results',
      kind: 'list',
      of: [...resultQuote, yesNo('passed', 'Passed'), text('invalidatedBy', 'Invalidated by')],
    },
    whole('microbialPolicyVersion', 'Microbial policy version'),
    {
      name: 'microbialResults',
      label: 'Microbial results',
      kind: 'list',
      of: [
        text('location', 'Sampling location'),
        choice('kind', 'Kind', MICROBIAL_KINDS, MICROBIAL_KIND_LABELS),
        text('reported', 'Reported'),
        num('percentOfLimit', 'Percent of limit'),
        text('judgement', 'Judgement'),
        text('invalidatedBy', 'Invalidated by'),
      ],
    },
    {
      name: 'deviations',
      label: 'Deviations',
      kind: 'list',
      of: [
        text('number', 'Number'),
        choice('kind', 'Kind', DEVIATION_KINDS, DEVIATION_KIND_LABELS),
        text('title', 'Title'),
        text('status', 'Status'),
        yesNo('invalidatesRun', 'Invalidates the run'),
        longText('rootCause', 'Root cause'),
        longText('conclusion', 'Conclusion'),
      ],
    },
  ],
  Deviation: [
    text('number', 'Number'),
    text('title', 'Title'),
    choice('kind', 'Kind', DEVIATION_KINDS, DEVIATION_KIND_LABELS),
    ref('runId', 'Run', 'runs'),
    ref('resultId', 'Sample result', 'sampleResults'),
    ref('samplingLocationId', 'Sampling location', 'samplingLocations'),
    longText('description', 'Description'),
    longText('rootCause', 'Root cause'),
    longText('conclusion', 'Conclusion'),
    text('capaReference', 'CAPA reference'),
    yesNo('invalidatesRun', 'Invalidates the run'),
  ],
  Investigation: [
    text('number', 'Number'),
    choice('phase', 'Phase', INVESTIGATION_PHASES, { laboratory: 'Laboratory (phase I)' }),
    ref('runId', 'Run', 'runs'),
    { name: 'result', label: 'Result investigated', kind: 'list', of: resultQuote },
    choice('outcome', 'Outcome', INVESTIGATION_OUTCOMES, INVESTIGATION_OUTCOME_LABELS),
    longText('findings', 'Findings'),
    longText('conclusion', 'Conclusion'),
    choice('causeCategory', 'Laboratory cause', LABORATORY_CAUSES, LABORATORY_CAUSE_LABELS),
    longText('causeDescription', 'Cause described'),
  ],
  Study: [
    text('number', 'Number'),
    text('title', 'Title'),
    text('studyType', 'Study type'),
    choice('originKind', 'Raised from', ['none', 'qualificationTask', 'changeAssessment'], {
      none: 'Nothing (planned study)',
      qualificationTask: 'A qualification task',
      changeAssessment: 'A change assessment',
    }),
    ref('protocolId', 'Protocol', 'protocols'),
    whole('protocolVersionNumber', 'Protocol version'),
    choice(
      'failedRunPolicy',
      'When a completed run fails',
      Object.keys(FAILED_RUN_POLICY_LABELS),
      FAILED_RUN_POLICY_LABELS,
    ),
    longText('description', 'Description'),
  ],
  // The cleaning limit policy, as its screen labels it (client/shared/policies/PolicyFieldsForm).
  CleaningPolicy: [
    text('residueType', 'Residue type'),
    yesNo('useToxicity', 'Use toxicity (PDE/ADE)'),
    yesNo('useDosage', 'Use dosage (1/1000 of the dose)'),
    yesNo('useLd50', 'Use LD50'),
    yesNo('useARL', 'Use general limit (ARL)'),
    yesNo('useProductLimit', 'Use product limit'),
    yesNo('useFirstAvailableCriteria', 'Use first available criterion'),
    yesNo('ignoreCombo', 'Ignore combination (each active on its own)'),
    yesNo('useSAR', 'Sample limits from the surface limit (SAR)'),
    { name: 'arl', label: 'General limit (ARL)', kind: 'quantity', measure: 'l5' },
    {
      name: 'intermediateArl',
      label: 'Intermediate general limit',
      kind: 'quantity',
      measure: 'l5',
    },
    { name: 'activesArl', label: 'Actives general limit', kind: 'quantity', measure: 'l5' },
    yesNo('useResidueLimit', 'Cap the surface limit'),
    { name: 'residueLimit', label: 'Residue limit', kind: 'quantity', measure: 'l3' },
    yesNo('useGlobalRecoveryPercentage', 'Use a global recovery'),
    num('globalRecoveryPercentage', 'Global recovery (%)'),
    yesNo('useSampleLimit', 'Cap the sample limits'),
    num('swabSampleLimit', 'Swab sample limit'),
    num('rinseSampleLimit', 'Rinse sample limit'),
    yesNo('useFixedSampleLimits', 'Use fixed sample limits'),
    num('fixedSwabLimit', 'Fixed swab limit'),
    num('fixedRinseLimit', 'Fixed rinse limit'),
    num('safetyFactor', 'Safety factor'),
    num('modificationFactor', 'Modification factor'),
    // Kept with its unit (kg, g); read as a quantity like any other.
    { name: 'bodyWeight', label: 'Body weight', kind: 'json' },
    num('ld50EmpiricalFactor', 'LD50 empirical factor'),
    choice('areaBasis', 'Area basis', ['shared', 'previousTrain'], {
      shared: 'Shared equipment surface',
      previousTrain: "The previous product's train",
    }),
    { name: 'limitRepresentation', label: 'Limit representation', kind: 'json' },
  ],
};

/**
 * Keys a record keeps to link its parts, which no reader needs: printed nowhere. A generation's
 * job id stays in its audit row, where the logs' lines of that job are found by it.
 */
const INTERNAL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Study: ['originId'],
  ReportDocument: ['jobId'],
  CleaningAssessment: ['jobId'],
};

/** The declared content field of a lifecycle record's domain, if there is one. */
export function contentField(domain: string, name: string): FieldDef | undefined {
  return CONTENT_FIELDS[domain]?.find((field) => field.name === name);
}

export function isInternalField(domain: string, name: string): boolean {
  return INTERNAL_FIELDS[domain]?.includes(name) ?? false;
}
