import {
  AUDIT_DEFS,
  auditReferences,
  nameKey,
  type AuditNames,
  type AuditRowLike,
} from '#core/audit/audit-format.ts';
import type { Queryable } from '#server/db/db.ts';
import { recordNameSql } from '#server/entities/record-name-sql.ts';

/** Names of the records audit rows point to that have no declared type (core/audit/audit-undeclared.ts). */
const UNDECLARED_NAMES: Readonly<Record<string, string>> = {
  users: `select id, first_name || ' ' || last_name as name from users
           where id = any($1::int[]) and plan_id = $2`,
  serviceAccounts: `select id, first_name as name from users
                     where id = any($1::int[]) and plan_id = $2 and owner_id is not null`,
  apiTokens: `select t.id, t.name from api_tokens t join users u on u.id = t.user_id
               where t.id = any($1::int[]) and u.plan_id = $2`,
  defaultUnits: `select id, short_name as name from default_units
                  where id = any($1::int[])
                    and facility_id in (select id from facilities where plan_id = $2)`,
  reports: inPlan('reports', `number || ' ' || title`),
  changeAssessments: inPlan('change_assessments', 'title'),
  cleaningAssessments: inPlan('cleaning_assessments', 'number'),
  studies: inPlan('studies', 'title'),
  deviations: inPlan('deviations', 'title'),
  // A run as its study's number and its place in the study ('ST-0002 run 1').
  runs: `select r.id, 'ST-' || lpad(s.seq::text, greatest(4, length(s.seq::text)), '0') || ' run ' || r.sequence as name
           from study_runs r join studies s on s.id = r.study_id
          where r.id = any($1::int[])
            and r.facility_id in (select id from facilities where plan_id = $2)`,
  // A sample result by its sample's own number.
  sampleResults: inPlan('sample_results', 'batch_number'),
  // A picture by its file name; one kept without a name by its place among its item's pictures.
  equipmentImages: `select i.id, coalesce(nullif(i.name, ''),
                             'Picture ' || (select count(*) from equipment_images o
                                             where o.equipment_id = i.equipment_id and o.id <= i.id)
                             || ' of ' || e.name) as name
                       from equipment_images i join equipment e on e.id = i.equipment_id
                      where i.id = any($1::int[])
                        and i.facility_id in (select id from facilities where plan_id = $2)`,
  // A limits snapshot by the approval it was taken at ('Limits approved with CA-0001 …').
  limitsSnapshots: `select s.id, ${limitsSnapshotNameSql('s.id')} as name from limits_snapshots s
                     where s.id = any($1::int[])
                       and s.facility_id in (select id from facilities where plan_id = $2)`,
};

/**
 * A limits snapshot's name, as an SQL expression of its id: the approval it was taken at
 * ('Limits approved with Chemical cleaning limit policy (version 2)'), never its id (issue 30).
 * Screens, reports and the audit trail all name snapshots with it.
 */
export function limitsSnapshotNameSql(id: string): string {
  return `(select 'Limits approved with ' || coalesce(v.title, 'a policy')
                   || ' (version ' || ls.version_number || ')'
             from limits_snapshots ls
             left join controlled_versions v
               on v.facility_id = ls.facility_id and v.document_type = ls.document_type
              and v.document_id = ls.document_id and v.version_number = ls.version_number
            where ls.id = ${id})`;
}

/** A facility table's names, as a row of the caller's plan says them. */
function inPlan(table: string, name: string): string {
  return `select id, ${name} as name from ${table}
           where id = any($1::int[])
             and facility_id in (select id from facilities where plan_id = $2)`;
}

/**
 * The names of the records a set of audit rows is about or points to, one query per record
 * type, so that the screen and the PDF say 'Aspirin 100' where the row keeps the id 12. Archived
 * records keep their names (nothing is deleted); only the caller's plan is looked in.
 */
export async function auditNames(
  q: Queryable,
  planId: number,
  rows: readonly AuditRowLike[],
): Promise<AuditNames> {
  const wanted = new Map<string, Set<number>>();
  for (const row of rows) {
    for (const [key, ids] of auditReferences(row)) {
      const all = wanted.get(key) ?? new Set<number>();
      for (const id of ids) all.add(id);
      wanted.set(key, all);
    }
  }
  const names: Record<string, string> = {};
  for (const [key, ids] of wanted) {
    const undeclared = UNDECLARED_NAMES[key];
    if (undeclared) {
      const found = await q.query<{ id: number; name: string }>(undeclared, [[...ids], planId]);
      for (const row of found) names[nameKey(key, row.id)] = row.name;
      continue;
    }
    const def = AUDIT_DEFS.find((d) => d.key === key);
    const name = def ? recordNameSql(def, def.table) : null;
    if (!def || !name) continue;
    const inPlan =
      def.scope === 'plan'
        ? 'plan_id = $2'
        : 'facility_id in (select id from facilities where plan_id = $2)';
    const found = await q.query<{ id: number; name: string | null }>(
      `select id, ${name} as name from ${def.table}
        where id = any($1::int[]) and ${inPlan}`,
      [[...ids], planId],
    );
    for (const row of found) if (row.name) names[nameKey(key, row.id)] = row.name;
  }
  return names;
}
