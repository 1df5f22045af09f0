import { AppError } from '#core/errors/errors.ts';
import type { TInvestigation } from '#core/schemas/investigation.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import type { TMicrobialKind } from '#core/schemas/verification.schemas.ts';
import { controlledStates } from '#server/records/controlled.ts';
import { FINAL_RINSE, microbialLabel } from '#core/verification/release-microbial.ts';

/*
 * Reads of laboratory investigations (core/verification/README.md, "Out-of-specification
 * results"): one by id, or those of a run, each with its controlled state. An investigation
 * names a sample result or a microbial result; a microbial one is named by its location (or the
 * final rinse) and its test, as the run's release reasons name it.
 */

export const investigationNumber = (seq: number) => `INV-${String(seq).padStart(4, '0')}`;

export interface InvestigationRow {
  id: number;
  facility_id: number;
  seq: number;
  run_id: number;
  result_id: number | null;
  microbial_result_id: number | null;
  microbial_kind: TMicrobialKind | null;
  phase: 'laboratory';
  outcome: TInvestigation['outcome'];
  cause_category: TInvestigation['causeCategory'];
  cause_description: string | null;
  findings: string;
  conclusion: string | null;
  version: number;
  /** A string when read as JSON. */
  created_at: Date | string;
  created_by_name: string | null;
  location_name: string;
  censoring: string;
  raw_value: number;
  unit: string;
  percent_of_limit: number | null;
}

const SELECT = `select i.*, trim(concat(u.first_name, ' ', u.last_name)) as created_by_name,
       coalesce(l.name, '${FINAL_RINSE}') as location_name, m.kind as microbial_kind,
       coalesce(r.censoring, m.censoring) as censoring,
       coalesce(r.raw_value, m.raw_value) as raw_value, coalesce(r.unit, m.unit) as unit,
       coalesce(r.percent_of_limit, m.percent_of_limit) as percent_of_limit
  from investigations i
  left join sample_results r on r.id = i.result_id
  left join microbial_results m on m.id = i.microbial_result_id
  left join sampling_locations l on l.id = coalesce(r.sampling_location_id, m.sampling_location_id)
  left join users u on u.id = i.created_by`;

/**
 * What a sample or microbial result's row says of the result it repeats, the one that
 * superseded it and the investigation that invalidated it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a result row, mapped field by field
export const resultLinksOf = (r: Record<string, any>) => ({
  repeats: r.repeats_result_id
    ? { resultId: r.repeats_result_id, kind: r.repeat_kind, reason: r.repeat_reason ?? '' }
    : null,
  supersededBy: r.superseded_by,
  invalidatedBy: r.invalidated_by_investigation
    ? {
        investigationId: r.invalidated_by_investigation,
        number: investigationNumber(r.invalidated_seq),
      }
    : null,
});

const named = (row: InvestigationRow): InvestigationRow =>
  row.microbial_kind === null
    ? row
    : { ...row, location_name: microbialLabel(row.location_name, row.microbial_kind) };

/** How the result was reported, as the run's signed content shows it. */
export const reportedOf = (r: { censoring: string; raw_value: number; unit: string }) =>
  `${r.censoring === '=' ? '' : `${r.censoring} `}${Number(r.raw_value)} ${r.unit}`;

export async function investigationRow(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<InvestigationRow> {
  const [row] = await q.query<InvestigationRow>(
    `${SELECT} where i.facility_id = $1 and i.id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Investigation ${id} was not found`);
  return named(row);
}

async function withState(
  q: Queryable,
  facilityId: number,
  rows: InvestigationRow[],
): Promise<TInvestigation[]> {
  const states = await controlledStates(
    q,
    { facilityId, documentType: 'Investigation' },
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const state = states.get(r.id);
    return {
      id: r.id,
      number: investigationNumber(r.seq),
      runId: r.run_id,
      resultId: r.result_id,
      microbialResultId: r.microbial_result_id,
      samplingLocationName: r.location_name,
      reported: reportedOf(r),
      percentOfLimit: r.percent_of_limit === null ? null : Number(r.percent_of_limit),
      phase: r.phase,
      outcome: r.outcome,
      causeCategory: r.cause_category,
      causeDescription: r.cause_description,
      findings: r.findings,
      conclusion: r.conclusion,
      concluded: state?.status === 'Approved',
      createdAt: new Date(r.created_at).toISOString(),
      createdByName: r.created_by_name || null,
      controlled: {
        status: state?.status ?? 'BeingBuilt',
        signatureState: state?.signatureState ?? null,
        versionNumber: state?.versionNumber ?? 1,
        version: r.version,
      },
      version: r.version,
    };
  });
}

export async function getInvestigation(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<TInvestigation> {
  const [one] = await withState(q, facilityId, [await investigationRow(q, facilityId, id)]);
  return one!;
}

/** The investigations of run `run` in facility `facility` (SQL parameters), as rows. */
export const investigationRowsSql = (facility: string, run: string) =>
  `${SELECT} where i.facility_id = ${facility} and i.run_id = ${run}`;

export async function investigationsOf(
  q: Queryable,
  facilityId: number,
  runId: number,
): Promise<TInvestigation[]> {
  const rows = await q.query<InvestigationRow>(
    `${investigationRowsSql('$1', '$2')} order by i.id`,
    [facilityId, runId],
  );
  return investigationsFrom(q, facilityId, rows);
}

/** The investigations of their rows (read as JSON too: a date as a string), with their states. */
export const investigationsFrom = (q: Queryable, facilityId: number, rows: InvestigationRow[]) =>
  withState(q, facilityId, rows.map(named));
