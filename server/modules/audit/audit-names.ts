import {
  AUDIT_DEFS,
  auditReferences,
  nameFieldOf,
  nameKey,
  type AuditNames,
  type AuditRowLike,
} from '#core/audit/audit-format.ts';
import { columnOf } from '#core/entities/field.ts';
import type { Queryable } from '#server/db/db.ts';

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
};

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
    const field = def ? nameFieldOf(def) : undefined;
    if (!def || !field) continue;
    const inPlan =
      def.scope === 'plan'
        ? 'plan_id = $2'
        : 'facility_id in (select id from facilities where plan_id = $2)';
    const found = await q.query<{ id: number; name: string | null }>(
      `select id, ${columnOf(field)}::text as name from ${def.table}
        where id = any($1::int[]) and ${inPlan}`,
      [[...ids], planId],
    );
    for (const row of found) if (row.name) names[nameKey(key, row.id)] = row.name;
  }
  return names;
}
