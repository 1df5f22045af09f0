import { RECORD_DEFS } from '#core/entities/defs/index.ts';
import { samplesDef } from '#core/entities/defs/samples.def.ts';
import { samplingLocationsDef } from '#core/entities/defs/sampling-locations.def.ts';
import type { Queryable } from '#server/db/db.ts';
import { assessmentRow, type AssessmentRow } from './cleaning-assessments.service.ts';
import { changeAssessmentNumber, changeAssessmentsByNumber } from './change-assessment-link.ts';

/**
 * The audit domains of the facility's GMP data: every declared record the limits, coverage and
 * sampling rest on, the limit policies and settings, and the approvals that put policies in force.
 * Not sign-ins, users, exports or the assessments themselves.
 */
export const GMP_DOMAINS = [
  ...new Set([
    ...RECORD_DEFS.map((d) => d.domain),
    samplesDef.domain,
    samplingLocationsDef.domain,
    'CleaningPolicy',
    'MicrobialCleaningLimitPolicy',
    'CleaningInspectionSettings',
    'RoomGrade',
    'AdditionalProperty',
    'SamplingAttribute',
    'DefaultUnit',
  ]),
];

/** Controlled documents whose approval changes the data in force. */
const APPROVED_DATA = ['CleaningLimitPolicy', 'CleaningInspectionSettings'];

export interface FromLastPage {
  since: string | null;
  priorId: number | null;
  changes: {
    at: string;
    userName: string | null;
    domain: string;
    action: string;
    entityId: string | null;
    entityName: string | null;
    reason: string | null;
    changeAssessment: { id: number; number: string; title: string } | null;
  }[];
  total: number;
}

const NAMED_DEFS = [...RECORD_DEFS, samplesDef, samplingLocationsDef].filter(
  (d) => d.scope === undefined && d.fields.some((f) => f.name === 'name'),
);

/** The current names of the records the rows changed (an edit's audit row holds only what moved). */
async function namesOf(
  q: Queryable,
  facilityId: number,
  rows: readonly { domain: string; entity_id: string | null }[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const def of NAMED_DEFS) {
    const ids = rows
      .filter((r) => r.domain === def.domain && /^\d{1,9}$/.test(r.entity_id ?? ''))
      .map((r) => Number(r.entity_id));
    if (ids.length === 0) continue;
    const found = await q.query<{ id: number; name: string }>(
      `select id, name from ${def.table} where facility_id = $1 and id = any($2::int[])`,
      [facilityId, [...new Set(ids)]],
    );
    for (const f of found) names.set(`${def.domain}:${f.id}`, f.name);
  }
  return names;
}

/** The completed assessment the changes are counted from, and up to when they are counted. */
async function countedBetween(
  q: Queryable,
  facilityId: number,
  id: number | undefined,
): Promise<{ prior: AssessmentRow | null; until: Date | null }> {
  const target = id === undefined ? null : await assessmentRow(q, facilityId, id);
  const [prior] = await q.query<AssessmentRow>(
    `select id, completed_at from cleaning_assessments
      where facility_id = $1 and completed_at is not null and ($2::int is null or id < $2)
      order by completed_at desc, id desc limit 1`,
    [facilityId, id ?? null],
  );
  return { prior: prior ?? null, until: target?.started_at ?? null };
}

/**
 * The facility's GMP data changes (audit rows) since the latest completed assessment, or, for
 * assessment `id`, between the completed assessment before it and its start; newest first.
 */
export async function changesFromLast(
  q: Queryable,
  facilityId: number,
  query: { id?: number | undefined; pageNumber: number; pageLimit: number },
): Promise<FromLastPage> {
  const { prior, until } = await countedBetween(q, facilityId, query.id);
  const since = prior?.completed_at ?? null;
  const page = await dataChangesBetween(q, facilityId, { ...query, since, until });
  return { since: since?.toISOString() ?? null, priorId: prior?.id ?? null, ...page };
}

/**
 * The facility's GMP data changes (audit rows) after `since` and up to `until` (either open),
 * newest first, each with the change assessment whose approval applied it (named in its reason).
 * A report's "compare with today" lists them too.
 */
export async function dataChangesBetween(
  q: Queryable,
  facilityId: number,
  query: {
    since: Date | string | null;
    until: Date | string | null;
    pageNumber: number;
    pageLimit: number;
  },
): Promise<Pick<FromLastPage, 'changes' | 'total'>> {
  const { since, until } = query;
  const where = `facility_id = $1 and ($2::timestamptz is null or at > $2)
    and ($3::timestamptz is null or at <= $3)
    and (domain = any($4::text[]) or (domain = 'ElectronicSignature' and action = 'Approve'
         and new_values ->> 'documentType' = any($5::text[])))`;
  const params = [facilityId, since, until, GMP_DOMAINS, APPROVED_DATA];
  const [rows, [count]] = await Promise.all([
    q.query<{
      at: Date;
      user_name: string | null;
      domain: string;
      action: string;
      entity_id: string | null;
      entity_name: string | null;
      reason: string | null;
    }>(
      `select at, user_name, domain, action, entity_id, reason,
              coalesce(new_values ->> 'name', old_values ->> 'name') as entity_name
         from audit_log where ${where}
        order by at desc, id desc limit $6 offset $7`,
      [...params, query.pageLimit, (query.pageNumber - 1) * query.pageLimit],
    ),
    q.query<{ n: number }>(`select count(*)::int as n from audit_log where ${where}`, params),
  ]);
  const names = await namesOf(q, facilityId, rows);
  const links = await changeAssessmentsByNumber(
    q,
    facilityId,
    rows.map((r) => changeAssessmentNumber(r.reason)).filter((n): n is string => n !== null),
  );
  return {
    changes: rows.map((r) => ({
      at: r.at.toISOString(),
      userName: r.user_name,
      domain: r.domain,
      action: r.action,
      entityId: r.entity_id,
      entityName: r.entity_name ?? names.get(`${r.domain}:${r.entity_id}`) ?? null,
      reason: r.reason,
      changeAssessment: links.get(changeAssessmentNumber(r.reason) ?? '') ?? null,
    })),
    total: count?.n ?? 0,
  };
}
