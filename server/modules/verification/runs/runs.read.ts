import { AppError } from '#core/errors/errors.ts';
import type {
  TDeviation,
  TResultUnit,
  TRun,
  TRunStatus,
  TSampleResult,
  TSampleType,
} from '#core/schemas/verification.schemas.ts';
import { holdMaxima, releaseFlag, runVerdict, type RunState } from '#core/verification/release.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import type { Queryable } from '#server/db/db.ts';
import { LruMap } from '#server/util/lru-map.ts';
import {
  controlledState,
  controlledStates,
  type ControlledVersionState,
} from '#server/records/controlled.ts';
import {
  investigationRowsSql,
  resultLinksOf,
  investigationsFrom,
  type InvestigationRow,
} from './investigations.read.ts';
import {
  microbialResultRowsSql,
  microbialRunState,
  runMicrobialFacts,
  toMicrobialResult,
} from './microbial-read.ts';
import { planRows, studyCarbonFractionRead, type PlanRow, type StudyOfRun } from './run-plan.ts';
import { snapshotNames } from './snapshot-names.ts';
import { runReadsOf, type JudgedRun } from './run-reads.ts';
import {
  pinnedSettings,
  runInspectionOf,
  type RunInspectionColumns,
} from './inspection-settings.ts';

/*
 * Reads of runs (core/verification/README.md): one run with its plan, results, deviations and
 * controlled state, the runs of a study, and the state the verdict and release flag derive from.
 */

export const studyNumber = (seq: number) => `ST-${String(seq).padStart(4, '0')}`;
/** A run as people name it: "ST-0001 run 2" (the logbook, the signers' title). */
export const runName = (studySeq: number, sequence: number) =>
  `${studyNumber(studySeq)} run ${sequence}`;
export const deviationNumber = (seq: number) => `DEV-${String(seq).padStart(4, '0')}`;

export interface RunRow extends RunInspectionColumns {
  id: number;
  facility_id: number;
  study_id: number;
  sequence: number;
  started_at: Date | null;
  ended_at: Date | null;
  operator_ids: number[];
  cleaning_procedure_id: number | null;
  agent_lot: string | null;
  product_batch: string | null;
  dirty_hold_hours: number | null;
  clean_hold_hours: number | null;
  visual_result: 'Pass' | 'Fail' | null;
  visual_notes: string | null;
  verdict: TRun['verdict'];
  release_flag: TRun['releaseFlag'];
  /** The release rules the stored verdict and flag were computed under (RUN_RULES_VERSION). */
  rules_version: number;
  version: number;
}

/** The run (locked when asked); 404 when it is not the facility's. */
export async function runRow(
  q: Queryable,
  facilityId: number,
  id: number,
  lock = false,
): Promise<RunRow> {
  const [row] = await q.query<RunRow>(
    `select * from study_runs where facility_id = $1 and id = $2 ${lock ? 'for update' : ''}`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Run ${id} was not found`);
  return row;
}

/**
 * Snapshot inputs already read, by snapshot: a snapshot never changes (a trigger refuses it), and
 * its input is megabytes of JSON for a large facility, read and then compiled (result-limit.ts
 * keeps the compiled form per input object) by every run call. The key holds the content hash,
 * so two databases of one process never share an entry. The last few used are kept.
 */
const snapshotInputs = new LruMap<LimitsInput>(2);

async function snapshotInput(
  q: Queryable,
  snapshot: { id: number; at: Date; hash: string },
): Promise<LimitsInput> {
  const key = `${snapshot.id}:${snapshot.at.toISOString()}:${snapshot.hash}`;
  const kept = snapshotInputs.get(key);
  if (kept) return kept;
  const [row] = await q.query<{ input: LimitsInput }>(
    'select input from limits_snapshots where id = $1',
    [snapshot.id],
  );
  snapshotInputs.set(key, row!.input);
  return row!.input;
}

type SnapshotFacts = Pick<StudyOfRun, 'product_names' | 'equipment_names' | 'carbon_fraction'>;

/**
 * What a study's names and carbon fraction read as of its snapshot, by everything they are read
 * from (issue 34: three reads of the kept versions, the costliest of a results entry): kept only
 * when every part came from versions kept by then, which never change (a name read from the
 * record as it is now, for want of a kept version, is read again each time). The key holds the
 * study's moment, the snapshot's hash, the protocol's products and the equipment its plan's
 * locations are on now, so a moved location or another database never meets an entry.
 */
const snapshotFacts = new LruMap<SnapshotFacts>(256);

/** The study (locked when asked) with the pinned protocol content; 404 when not the facility's. */
export async function studyOf(
  q: Queryable,
  facilityId: number,
  id: number,
  lock = false,
): Promise<StudyOfRun> {
  // A locked read goes to the database for its lock; what it read is kept as any other.
  const reads = runReadsOf(q);
  const known = lock ? undefined : reads?.studies.get(id);
  if (known) return known;
  const study = await readStudy(q, facilityId, id, lock);
  reads?.studies.set(id, study);
  return study;
}

async function readStudy(
  q: Queryable,
  facilityId: number,
  id: number,
  lock: boolean,
): Promise<StudyOfRun> {
  const [row] = await q.query<
    Omit<StudyOfRun, 'product_names' | 'equipment_names' | 'snapshot_input'> & {
      created_at: Date;
      snapshot_id: number | null;
      snapshot_at: Date | null;
      snapshot_hash: string | null;
      equipment_ids: number[] | null;
    }
  >(
    `select s.id, s.seq, s.protocol_content, s.closed_at, s.created_at, l.id as snapshot_id,
            l.created_at as snapshot_at, l.input_hash as snapshot_hash,
            (select array_agg(distinct e.equipment_id order by e.equipment_id)
               from sampling_locations e
              where e.facility_id = s.facility_id
                and e.id in (select (p->>'samplingLocationId')::int
                               from jsonb_array_elements(coalesce(
                                      s.protocol_content->'samplingPlan', '[]'::jsonb)) p))
              as equipment_ids
       from studies s left join limits_snapshots l on l.id = s.limits_snapshot_id
      where s.facility_id = $1 and s.id = $2 ${lock ? 'for update of s' : ''}`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Study ${id} was not found`);
  const {
    created_at: pinnedAt,
    snapshot_id: snapshotId,
    snapshot_at: snapshotAt,
    snapshot_hash: snapshotHash,
    equipment_ids: equipmentIds,
    ...study
  } = row;
  if (snapshotId === null || !snapshotAt || snapshotHash === null)
    return { ...study, snapshot_input: null, product_names: [], equipment_names: new Map() };
  const productIds = study.protocol_content.productIds ?? [];
  const productGroupId = study.protocol_content.productGroupId ?? null;
  const key = JSON.stringify([
    facilityId,
    id,
    pinnedAt.toISOString(),
    snapshotId,
    snapshotAt.toISOString(),
    snapshotHash,
    productIds,
    productGroupId,
    equipmentIds,
  ]);
  const input = await snapshotInput(q, { id: snapshotId, at: snapshotAt, hash: snapshotHash });
  const known = snapshotFacts.get(key);
  if (known) return { ...study, snapshot_input: input, ...known };
  const names = await snapshotNames(q, {
    facilityId,
    productIds,
    productGroupId,
    locationIds: (study.protocol_content.samplingPlan ?? []).map((p) => p.samplingLocationId),
    pinnedAt,
    snapshotAt,
  });
  const carbon = await studyCarbonFractionRead(
    q,
    facilityId,
    input,
    names.productNames,
    snapshotAt,
  );
  const facts = {
    product_names: names.productNames,
    equipment_names: names.equipmentNames,
    carbon_fraction: carbon.fraction,
  };
  if (names.allKept && carbon.kept) snapshotFacts.set(key, facts);
  return { ...study, snapshot_input: input, ...facts };
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function runStatus(run: RunRow, state: ControlledVersionState | null): TRunStatus {
  switch (state?.status) {
    case 'BeingReviewed':
      return 'BeingReviewed';
    case 'BeingApproved':
      return 'BeingApproved';
    case 'Approved':
    case 'Deprecated':
      return 'Completed';
    default:
      return run.started_at ? 'InProgress' : 'NotStarted';
  }
}

/** The sample results of run `run` (an SQL parameter), as `toSampleResult` takes them. */
const resultRowsSql = (run: string) =>
  `select r.*, l.name as location_name, e.name as equipment_name, l.risk_score,
          m.name as method_name, trim(concat(u.first_name, ' ', u.last_name)) as entered_by,
          i.seq as invalidated_seq
     from sample_results r
     left join investigations i on i.id = r.invalidated_by_investigation
     join sampling_locations l on l.id = r.sampling_location_id
     join equipment e on e.id = r.equipment_id
     join analytical_methods m on m.id = r.analytical_method_id
     left join users u on u.id = r.created_by
    where r.run_id = ${run}`;

/** A sample result from its row (read as JSON: its timestamps as strings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mapped field by field below
const toSampleResult = (r: Record<string, any>): TSampleResult => ({
  id: r.id,
  runId: r.run_id,
  samplingLocationId: r.sampling_location_id,
  samplingLocationName: r.location_name,
  equipmentId: r.equipment_id,
  equipmentName: r.equipment_name,
  riskScore: r.risk_score,
  sampleType: r.sample_type as TSampleType,
  analyticalMethodId: r.analytical_method_id,
  analyticalMethodName: r.method_name,
  analyticalMethodVersion: r.analytical_method_version,
  batchNumber: r.batch_number,
  censoring: r.censoring,
  rawValue: Number(r.raw_value),
  unit: r.unit as TResultUnit,
  judgement: r.judgement,
  ...resultLinksOf(r),
  takenAt: iso(r.taken_at),
  analysedAt: iso(r.analysed_at),
  analyst: r.analyst ?? null,
  enteredAt: iso(r.created_at)!,
  enteredByName: r.entered_by || null,
  version: r.version,
});

/** The deviations of run `run` (an SQL parameter), as `deviationsFrom` takes them. */
const deviationRowsSql = (run: string) =>
  `select d.*, trim(concat(u.first_name, ' ', u.last_name)) as created_by_name,
          trim(concat(c.first_name, ' ', c.last_name)) as closed_by_name
     from deviations d left join users u on u.id = d.created_by
     left join users c on c.id = d.closed_by
    where d.run_id = ${run}`;

/** The deviations of their rows (read as JSON: timestamps as strings), with their states. */
async function deviationsFrom(
  q: Queryable,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mapped field by field below
  rows: Record<string, any>[],
): Promise<TDeviation[]> {
  const states = await controlledStates(
    q,
    { facilityId: rows[0]?.facility_id as number, documentType: 'Deviation' },
    rows.map((d) => d.id as number),
  );
  return rows.map((d) => ({
    id: d.id,
    number: deviationNumber(d.seq),
    runId: d.run_id,
    resultId: d.result_id,
    samplingLocationId: d.sampling_location_id,
    kind: d.kind,
    title: d.title,
    description: d.description,
    rootCause: d.root_cause,
    conclusion: d.conclusion,
    capaReference: d.capa_reference,
    invalidatesRun: d.invalidates_run,
    status: d.status,
    createdAt: iso(d.created_at)!,
    createdByName: d.created_by_name || null,
    closedAt: iso(d.closed_at),
    closedByName: d.closed_by_name || null,
    controlled: {
      ...(states.get(d.id as number) ?? {
        status: 'BeingBuilt',
        signatureState: null,
        versionNumber: 1,
      }),
      version: d.version,
    },
    version: d.version,
  }));
}

/**
 * A run's children: its sample results, deviations, microbial results and investigations, each
 * in id order, read in one statement (issue 34: a results entry answered its run after four).
 * The states of its deviations and investigations, when it has any, take one statement each.
 */
async function runChildren(q: Queryable, facilityId: number, runId: number) {
  const all = (sql: string) => `(select coalesce(json_agg(c order by c.id), '[]') from (${sql}) c)`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mapped field by field
  type Rows = Record<string, any>[];
  const [row] = await q.query<{
    results: Rows;
    deviations: Rows;
    microbial: Rows;
    investigations: InvestigationRow[];
  }>(
    `select ${all(resultRowsSql('$2'))} as results, ${all(deviationRowsSql('$2'))} as deviations,
            ${all(microbialResultRowsSql('$2'))} as microbial,
            ${all(investigationRowsSql('$1', '$2'))} as investigations`,
    [facilityId, runId],
  );
  const [deviations, investigations] = await Promise.all([
    deviationsFrom(q, row!.deviations),
    investigationsFrom(q, facilityId, row!.investigations),
  ]);
  return {
    results: row!.results.map(toSampleResult),
    deviations,
    microbial: row!.microbial.map(toMicrobialResult),
    investigations,
  };
}

/** What the verdict and the release flag of the run derive from. */
export function runStateOf(
  run: RunRow,
  study: StudyOfRun,
  plan: PlanRow[],
  results: TSampleResult[],
  deviations: TDeviation[],
): RunState {
  const content = study.protocol_content;
  // Until the cleaning starts no settings are pinned: the release waits for a visual
  // inspection and only the protocol's hold maxima apply.
  const settings = pinnedSettings(run);
  return {
    visualResult: run.visual_result,
    plannedLocationIds: plan.map((p) => p.samplingLocationId),
    locationNames: Object.fromEntries(
      plan.map((p) => [p.samplingLocationId, p.samplingLocationName]),
    ),
    results: results.map((r) => ({
      samplingLocationId: r.samplingLocationId,
      passed: r.judgement.passed,
      superseded: r.supersededBy !== null,
      methodNotFit: r.judgement.methodNotFit,
    })),
    deviations: deviations.map((d) => ({
      status: d.status,
      kind: d.kind,
      invalidatesRun: d.invalidatesRun,
    })),
    dirtyHoldHours: run.dirty_hold_hours,
    cleanHoldHours: run.clean_hold_hours,
    dirtyHoldMaxHours: content.dirtyHoldMaxHours ?? null,
    cleanHoldMaxHours: content.cleanHoldMaxHours ?? null,
    allowReleaseAtRisk: content.allowReleaseAtRisk === true,
    visualRequired: settings?.visualInspectionRequired ?? true,
    settingsDirtyHoldMaxHours: settings?.dirtyHoldTimeHours ?? null,
    settingsCleanHoldMaxHours: settings?.cleanHoldTimeHours ?? null,
  };
}

/**
 * What a run's verdict and release flag derive from, and the flag computed from it. Only
 * `recomputeRun` (runs.service.ts) writes what this computes; every read answers the stored
 * verdict and flag, so a screen, a report and the dashboard cannot disagree (the reasons are the
 * rules' own explanation of the stored flag; a test recomputes every run and compares).
 */
export async function judgeRun(q: Queryable, facilityId: number, run: RunRow) {
  const study = await studyOf(q, facilityId, run.study_id);
  const [plan, { results, deviations, microbial: microbialResults, investigations }] =
    await Promise.all([planRows(q, facilityId, study), runChildren(q, facilityId, run.id)]);
  // After the plan: its locations, kept in a write (run-reads.ts), serve the microbial plan's
  // too; read beside it, they were read twice (a statement more, results-statements.test.ts).
  const microbial = await runMicrobialFacts(q, facilityId, run, study, microbialResults);
  const state = {
    ...runStateOf(run, study, plan, results, deviations),
    microbial: microbialRunState(microbial),
  };
  return {
    study,
    plan,
    results,
    deviations,
    microbial,
    investigations,
    state,
    verdict: runVerdict(state),
    release: releaseFlag(state),
  };
}

export type JudgedOfRun = Awaited<ReturnType<typeof judgeRun>>;

export async function getRun(q: Queryable, facilityId: number, id: number): Promise<TRun> {
  // The run as its recompute in this write judged it, when kept (run-reads.ts).
  const reads = runReadsOf(q);
  const known = reads?.judged.get(id) as JudgedRun<JudgedOfRun> | undefined;
  const run = known?.run ?? (await runRow(q, facilityId, id));
  const saved = reads?.states.get(id);
  const [judged, state] = await Promise.all([
    known?.judged ?? judgeRun(q, facilityId, run),
    saved ?? controlledState(q, { facilityId, documentType: 'Run', documentId: id }),
  ]);
  const { study, plan, results, deviations, investigations, release } = judged;
  const maxima = holdMaxima(judged.state);
  return {
    id: run.id,
    studyId: run.study_id,
    studyNumber: studyNumber(study.seq),
    sequence: run.sequence,
    status: runStatus(run, state),
    event: {
      startedAt: iso(run.started_at),
      endedAt: iso(run.ended_at),
      operatorIds: run.operator_ids,
      cleaningProcedureId: run.cleaning_procedure_id,
      agentLot: run.agent_lot,
      productBatch: run.product_batch,
      dirtyHoldHours: run.dirty_hold_hours,
      cleanHoldHours: run.clean_hold_hours,
      visualResult: run.visual_result,
      visualNotes: run.visual_notes,
    },
    verdict: run.verdict,
    releaseFlag: run.release_flag,
    releaseReasons: release.reasons,
    dirtyHoldMaxHours: maxima.dirty?.hours ?? null,
    cleanHoldMaxHours: maxima.clean?.hours ?? null,
    dirtyHoldMaxSource: maxima.dirty?.source ?? null,
    cleanHoldMaxSource: maxima.clean?.source ?? null,
    inspection: runInspectionOf(run),
    plan,
    results,
    deviations,
    investigations,
    studyClosed: study.closed_at !== null,
    controlled: {
      status: state?.status ?? 'BeingBuilt',
      signatureState: state?.signatureState ?? null,
      versionNumber: state?.versionNumber ?? 1,
      version: run.version,
    },
    version: run.version,
  };
}

/** The runs of a study, in sequence, for its screen. */
export async function listRuns(q: Queryable, facilityId: number, studyId: number) {
  await studyOf(q, facilityId, studyId);
  const rows = await q.query<RunRow>(
    `select * from study_runs where facility_id = $1 and study_id = $2 order by sequence`,
    [facilityId, studyId],
  );
  const states = await controlledStates(
    q,
    { facilityId, documentType: 'Run' },
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    sequence: r.sequence,
    status: runStatus(r, states.get(r.id) ?? null),
    verdict: r.verdict,
    releaseFlag: r.release_flag,
    version: r.version,
  }));
}
