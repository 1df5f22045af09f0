import { formatQuantity } from '#core/units/format-number.ts';
import { AppError } from '#core/errors/errors.ts';
import { sampleTypeLabel } from '#core/labels/enum-labels.ts';
import {
  DEVIATION_KIND_LABELS,
  RELEASE_LABELS,
  type TJudgement,
  type TReleaseFlag,
} from '#core/schemas/verification.schemas.ts';
import type { TInspectionRecord } from '#core/schemas/run-inspection.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { deviationNumber } from '../verification/runs/runs.read.ts';
import { requiredPassesOf, studyNumberOf } from '../verification/studies/studies.read.ts';
import {
  controlledAt,
  facts,
  isoSql,
  recordSignatures,
  signaturesAt,
  table,
  versionText,
  when,
  type RecordSignature,
  type RecordVersionAt,
} from './record-report-parts.ts';
import type { ReportKind } from './report-kinds.ts';

/*
 * The reports of a study and of a run (README.md "Kinds"), read through the kept versions of
 * studies, runs, results and deviations as they stood at the report's moment.
 */

type VersionAt = Omit<RecordVersionAt, 'content'> | null;
const stateOf = (v: RecordVersionAt | null): VersionAt =>
  v ? { versionNumber: v.versionNumber, status: v.status, signatureState: v.signatureState } : null;

interface Deviation {
  number: string;
  runId: number;
  kind: 'process' | 'nonProcess';
  title: string;
  rootCause: string | null;
  capaReference: string | null;
  invalidatesRun: boolean;
  status: string;
}

async function deviationsAt(q: Queryable, facilityId: number, asOf: string, runIds: number[]) {
  const rows = await q.query<Omit<Deviation, 'number'> & { seq: number }>(
    `select seq, run_id as "runId", kind, title, root_cause as "rootCause",
            capa_reference as "capaReference", invalidates_run as "invalidatesRun", status
       from ${tableAsOf('deviations', 1, 2)}
      where run_id = any($3::int[]) order by run_id, id`,
    [facilityId, asOf, runIds],
  );
  return rows.map(({ seq, ...d }): Deviation => ({ number: deviationNumber(seq), ...d }));
}

function deviationsTable(deviations: readonly Deviation[], runLabel?: (id: number) => string) {
  if (deviations.length === 0) return { text: 'No deviations.', italics: true };
  return table(
    [50, ...(runLabel ? [35] : []), 70, '*', '*', 60, 45, 40],
    [
      'Number',
      ...(runLabel ? ['Run'] : []),
      'Kind',
      'Title',
      'Root cause',
      'CAPA',
      'Invalidates',
      'Status',
    ],
    deviations.map((d) => [
      d.number,
      ...(runLabel ? [runLabel(d.runId)] : []),
      DEVIATION_KIND_LABELS[d.kind],
      d.title,
      d.rootCause ?? '—',
      d.capaReference ?? '—',
      d.invalidatesRun ? 'Yes' : 'No',
      d.status,
    ]),
  );
}

interface StudyData {
  number: string;
  title: string;
  studyType: string;
  description: string;
  protocol: { name: string; number: string | null; versionNumber: number };
  limitsSnapshotId: number | null;
  requiredPasses: number;
  consecutivePasses: number;
  outcome: string;
  closed: { at: string; reason: string | null } | null;
  version: VersionAt;
  runs: {
    id: number;
    sequence: number;
    startedAt: string | null;
    endedAt: string | null;
    verdict: string;
    releaseFlag: TReleaseFlag;
    version: VersionAt;
  }[];
  deviations: Deviation[];
  signatures: RecordSignature[];
}

export const studyReport: ReportKind = {
  // Studies and runs are read with QualificationTask Get (verification/route-base.ts).
  permission: { resource: 'QualificationTask', action: 'Get' },
  record: (parameters) => ({
    documentType: 'Study',
    documentId: parameters.kind === 'study' ? parameters.studyId : 0,
  }),
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'study') throw new Error('not a study report');
    const id = parameters.studyId;
    const [s] = await q.query<{
      seq: number;
      title: string;
      study_type: string;
      description: string;
      protocol_content: Record<string, unknown>;
      protocol_version_number: number;
      limits_snapshot_id: number | null;
      outcome: string;
      consecutive_passes: number;
      closed_at: string | null;
      close_reason: string | null;
    }>(
      `select seq, title, study_type, description, protocol_content, protocol_version_number,
              limits_snapshot_id, outcome, consecutive_passes,
              ${isoSql('closed_at')} as closed_at, close_reason
         from ${tableAsOf('studies', 1, 2, 3)}`,
      [facilityId, asOf, id],
    );
    if (!s) throw new AppError('NotFoundError', `Study ${id} was not found`);
    const runs = await q.query<Omit<StudyData['runs'][number], 'version'>>(
      `select id, sequence, ${isoSql('started_at')} as "startedAt",
              ${isoSql('ended_at')} as "endedAt", verdict, release_flag as "releaseFlag"
         from ${tableAsOf('study_runs', 1, 2)}
        where study_id = $3 order by sequence`,
      [facilityId, asOf, id],
    );
    const data: StudyData = {
      number: studyNumberOf(s.seq),
      title: s.title,
      studyType: s.study_type,
      description: s.description,
      protocol: {
        name: String(s.protocol_content.name ?? ''),
        number:
          typeof s.protocol_content.protocolNumber === 'string'
            ? s.protocol_content.protocolNumber
            : null,
        versionNumber: s.protocol_version_number,
      },
      limitsSnapshotId: s.limits_snapshot_id,
      requiredPasses: requiredPassesOf(s.protocol_content),
      consecutivePasses: s.consecutive_passes,
      outcome: s.outcome,
      closed: s.closed_at ? { at: s.closed_at, reason: s.close_reason } : null,
      version: stateOf(await controlledAt(q, facilityId, 'Study', id, asOf)),
      runs: await Promise.all(
        runs.map(async (r) => ({
          ...r,
          version: stateOf(await controlledAt(q, facilityId, 'Run', r.id, asOf)),
        })),
      ),
      deviations: await deviationsAt(
        q,
        facilityId,
        asOf,
        runs.map((r) => r.id),
      ),
      signatures: await signaturesAt(q, facilityId, 'Study', id, asOf),
    };
    return { title: `Study ${data.number} · ${s.title}`, data };
  },
  pdfContent(raw, settings, record) {
    const data = raw as StudyData;
    const runNumber = new Map(data.runs.map((r) => [r.id, `Run ${r.sequence}`]));
    return [
      facts([
        ['Study', `${data.number}: ${data.title}`],
        ['Study type', data.studyType],
        ['Description', data.description || '—'],
        [
          'Protocol',
          `${data.protocol.number ? `${data.protocol.number} ` : ''}${data.protocol.name}, version ${data.protocol.versionNumber}`,
        ],
        ['Limits snapshot', data.limitsSnapshotId === null ? '—' : String(data.limitsSnapshotId)],
        ['Study outcome', data.outcome],
        [
          'Consecutive passing runs',
          `${data.consecutivePasses} of ${data.requiredPasses} required`,
        ],
        [
          'Closed',
          data.closed ? `${when(data.closed.at, settings)}: ${data.closed.reason ?? ''}` : 'No',
        ],
        ['Record', versionText(data.version as RecordVersionAt | null, record)],
      ]),
      { text: 'Runs', style: 'h2' },
      data.runs.length === 0
        ? { text: 'The study has no runs.', italics: true }
        : table(
            [35, 110, 110, 55, 110, '*'],
            ['Run', 'Started', 'Ended', 'Outcome', 'Release', 'Record'],
            data.runs.map((r) => [
              String(r.sequence),
              when(r.startedAt, settings),
              when(r.endedAt, settings),
              r.verdict,
              RELEASE_LABELS[r.releaseFlag],
              versionText(r.version as RecordVersionAt | null),
            ]),
          ),
      { text: 'Deviations', style: 'h2' },
      deviationsTable(data.deviations, (id) => runNumber.get(id) ?? String(id)),
      ...recordSignatures(data.signatures, settings, record),
    ];
  },
};

interface RunResult {
  location: string;
  equipment: string;
  sampleType: string;
  method: string;
  batchNumber: string | null;
  censoring: string;
  rawValue: number;
  unit: string;
  judgement: TJudgement;
  superseded: boolean;
  /** The investigation (INV-0001) that invalidated it: shown, never counted. */
  invalidatedBy: string | null;
}

interface RunData {
  study: { number: string; title: string };
  sequence: number;
  event: {
    startedAt: string | null;
    endedAt: string | null;
    agentLot: string | null;
    productBatch: string | null;
    dirtyHoldHours: number | null;
    cleanHoldHours: number | null;
    visualResult: string | null;
    visualNotes: string | null;
  };
  inspection: TInspectionRecord | null;
  inspectionSettingsVersion: number | null;
  verdict: string;
  releaseFlag: TReleaseFlag;
  version: VersionAt;
  results: RunResult[];
  deviations: Deviation[];
  signatures: RecordSignature[];
}

function resultRow(r: RunResult, digits: number | undefined): unknown[] {
  const figure = (value: number | null, unit: string) => formatQuantity(value, unit, digits);
  const j = r.judgement;
  const shown =
    r.censoring === '='
      ? figure(r.rawValue, r.unit)
      : `${r.censoring} (${figure(r.rawValue, r.unit)})`;
  return [
    `${r.location}\n${r.equipment}`,
    `${sampleTypeLabel(r.sampleType)}, ${r.method}${r.batchNumber ? `\nSample number ${r.batchNumber}` : ''}`,
    shown,
    `${figure(j.correctedValue, r.unit)}\n(recovery ${formatQuantity(j.recovery * 100, '%', digits)})`,
    figure(j.limit, r.unit),
    j.percentOfLimit === null
      ? '—'
      : `${j.censoredBelow ? '< ' : ''}${formatQuantity(j.percentOfLimit, '%', digits)}`,
    r.invalidatedBy
      ? `Invalidated (investigation ${r.invalidatedBy})`
      : r.superseded
        ? 'Superseded'
        : j.passed === null
          ? 'No limit'
          : j.passed
            ? 'Pass'
            : 'Fail',
  ];
}

export const runReport: ReportKind = {
  fontSize: 7,
  permission: { resource: 'QualificationTask', action: 'Get' },
  record: (parameters) => ({
    documentType: 'Run',
    documentId: parameters.kind === 'run' ? parameters.runId : 0,
  }),
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'run') throw new Error('not a run report');
    const id = parameters.runId;
    const [run] = await q.query<{
      study_id: number;
      sequence: number;
      started_at: string | null;
      ended_at: string | null;
      agent_lot: string | null;
      product_batch: string | null;
      dirty_hold_hours: number | null;
      clean_hold_hours: number | null;
      visual_result: string | null;
      visual_notes: string | null;
      verdict: string;
      release_flag: TReleaseFlag;
      inspection: TInspectionRecord | null;
      inspection_settings_version: number | null;
    }>(
      `select study_id, sequence, ${isoSql('started_at')} as started_at,
              ${isoSql('ended_at')} as ended_at, agent_lot, product_batch, dirty_hold_hours, clean_hold_hours,
              visual_result, visual_notes, verdict, release_flag, inspection,
              inspection_settings_version
         from ${tableAsOf('study_runs', 1, 2, 3)}`,
      [facilityId, asOf, id],
    );
    if (!run) throw new AppError('NotFoundError', `Run ${id} was not found`);
    const [study] = await q.query<{ seq: number; title: string }>(
      `select seq, title from ${tableAsOf('studies', 1, 2, 3)}`,
      [facilityId, asOf, run.study_id],
    );
    const results = await q.query<RunResult>(
      `select sampling_locations.name as location, equipment.name as equipment,
              sample_results.sample_type as "sampleType", analytical_methods.name as method,
              sample_results.batch_number as "batchNumber", sample_results.censoring,
              sample_results.raw_value as "rawValue", sample_results.unit,
              sample_results.judgement, sample_results.superseded_by is not null as superseded,
              (select 'INV-' || lpad(i.seq::text, 4, '0') from investigations i
                where i.id = sample_results.invalidated_by_investigation) as "invalidatedBy"
         from ${tableAsOf('sample_results', 1, 2)}
         join ${tableAsOf('sampling_locations', 1, 2)}
           on sampling_locations.id = sample_results.sampling_location_id
         join ${tableAsOf('equipment', 1, 2)} on equipment.id = sample_results.equipment_id
         join ${tableAsOf('analytical_methods', 1, 2)}
           on analytical_methods.id = sample_results.analytical_method_id
        where sample_results.run_id = $3 order by sample_results.id`,
      [facilityId, asOf, id],
    );
    const data: RunData = {
      study: { number: studyNumberOf(study?.seq ?? 0), title: study?.title ?? '' },
      sequence: run.sequence,
      event: {
        startedAt: run.started_at,
        endedAt: run.ended_at,
        agentLot: run.agent_lot,
        productBatch: run.product_batch,
        dirtyHoldHours: run.dirty_hold_hours,
        cleanHoldHours: run.clean_hold_hours,
        visualResult: run.visual_result,
        visualNotes: run.visual_notes,
      },
      inspection: run.inspection,
      inspectionSettingsVersion: run.inspection_settings_version,
      verdict: run.verdict,
      releaseFlag: run.release_flag,
      version: stateOf(await controlledAt(q, facilityId, 'Run', id, asOf)),
      results: results.map((r) => ({ ...r, rawValue: Number(r.rawValue) })),
      deviations: await deviationsAt(q, facilityId, asOf, [id]),
      signatures: await signaturesAt(q, facilityId, 'Run', id, asOf),
    };
    return { title: `Run ${run.sequence} of ${data.study.number}`, data };
  },
  pdfContent(raw, settings, record) {
    const data = raw as RunData;
    const e = data.event;
    const hours = (h: number | null) => (h === null ? '—' : `${h} h`);
    const inspection = data.inspection;
    return [
      facts([
        ['Study', `${data.study.number}: ${data.study.title}`],
        ['Run', String(data.sequence)],
        ['Record', versionText(data.version as RecordVersionAt | null, record)],
        ['Outcome', data.verdict],
        ['Release flag', RELEASE_LABELS[data.releaseFlag]],
      ]),
      { text: 'Cleaning event', style: 'h2' },
      facts([
        ['Started', when(e.startedAt, settings)],
        ['Ended', when(e.endedAt, settings)],
        ['Product batch', e.productBatch ?? '—'],
        ['Cleaning agent lot', e.agentLot ?? '—'],
        ['Dirty hold', hours(e.dirtyHoldHours)],
        ['Clean hold', hours(e.cleanHoldHours)],
        ['Visual result', e.visualResult ?? '—'],
        ['Visual notes', e.visualNotes ?? '—'],
      ]),
      { text: 'Inspection', style: 'h2' },
      inspection
        ? facts([
            [
              'Inspected',
              `${when(inspection.inspectedAt, settings)} by ${inspection.inspectorName ?? '—'}`,
            ],
            ['Result', inspection.result],
            ['Light', `${inspection.lightLux} lux`],
            [
              'Checklist',
              inspection.checklist.map((c) => `${c.item}: ${c.answer}`).join('\n') || '—',
            ],
            [
              'Verified',
              inspection.verifiedAt
                ? `${when(inspection.verifiedAt, settings)} by ${inspection.verifiedByName ?? '—'}`
                : 'No',
            ],
            [
              'Settings',
              data.inspectionSettingsVersion === null
                ? '—'
                : `version ${data.inspectionSettingsVersion}`,
            ],
          ])
        : { text: 'No inspection was recorded.', italics: true },
      { text: 'Results', style: 'h2' },
      data.results.length === 0
        ? { text: 'No results.', italics: true }
        : table(
            [110, 110, 70, 80, 60, 55, '*'],
            [
              'Location',
              'Sample',
              'Value',
              'Recovery-corrected',
              'Limit',
              '% of limit',
              'Pass/fail',
            ],
            data.results.map((r) => resultRow(r, settings.significantDigits)),
          ),
      { text: 'Deviations', style: 'h2' },
      deviationsTable(data.deviations),
      ...recordSignatures(data.signatures, settings, record),
    ];
  },
};
