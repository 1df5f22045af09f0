import { validationError } from '#core/errors/errors.ts';
import {
  archiveImpact,
  describeImpact,
  isLimitsEntity,
  type LimitsEntityKey,
} from '#core/limits/archive-impact.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import { onBeforeArchive, type BeforeArchive } from '#server/entities/archive-hooks.ts';
import { computableLimitsInput } from './computable-input.ts';

/** Live records that use the one being archived: "product 'Tab 10 mg'", "production 'Line 1'". */
const WHERE_USED: Record<
  LimitsEntityKey,
  { label: string; sql: string; param: (id: number) => SqlValue }
> = {
  actives: {
    label: 'product',
    sql: `select name from products where facility_id = $1 and archived_at is null and actives @> $2::jsonb order by lower(name)`,
    param: (id) => JSON.stringify([{ activeId: id }]),
  },
  equipment: {
    label: 'production',
    sql: `select name from productions where facility_id = $1 and archived_at is null and $2::int = any(equipment_ids) order by lower(name)`,
    param: (id) => id,
  },
  products: {
    label: 'production',
    sql: `select name from productions where facility_id = $1 and archived_at is null and $2::int = any(product_ids) order by lower(name)`,
    param: (id) => id,
  },
};

export async function whereUsed(
  q: Queryable,
  entity: LimitsEntityKey,
  facilityId: number,
  id: number,
): Promise<string[]> {
  const { label, sql, param } = WHERE_USED[entity];
  const rows = await q.query<{ name: string }>(sql, [facilityId, param(id)]);
  return rows.map((r) => `${label} '${r.name}'`);
}

/**
 * Archiving an active still in a product, or equipment or a product still in a production,
 * changes limits (an archived active leaves its products, which then look cleaner than they
 * are). It is a decision: refused with where the record is used and which limits change, as
 * the what-if engine computes it, until the request confirms the impact.
 */
const confirmLimitsImpact: BeforeArchive = async (q, def, scope, record, options) => {
  if (!isLimitsEntity(def.key) || options.confirmImpact === true) return;
  const usedIn = await whereUsed(q, def.key, scope.facilityId, record.id);
  if (usedIn.length === 0) return;
  const name = String(record.name);
  const { input } = await computableLimitsInput(q, scope.facilityId);
  const impact = archiveImpact(input, def.key, name, 20);
  const message = `${def.label} '${name}' is used in ${usedIn.join(', ')}. Archiving it: ${describeImpact(impact)} Confirm the impact (confirmImpact: true) with a reason that says so to archive it.`;
  throw validationError(
    [
      { property: 'confirmImpact', constraints: { impact: message } },
      ...usedIn.map((place) => ({ property: 'usedIn', constraints: { usedIn: place } })),
    ],
    message,
  );
};

/** Registers the check on the entities the limits depend on (once; again only replaces it). */
export function registerArchiveImpact(): void {
  for (const key of ['actives', 'equipment', 'products'] as const)
    onBeforeArchive(key, 'limits-impact', confirmLimitsImpact);
}
