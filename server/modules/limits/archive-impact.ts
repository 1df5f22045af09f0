import { validationError } from '#core/errors/errors.ts';
import {
  archiveImpact,
  describeImpact,
  isLimitsEntity,
  type LimitsEntityKey,
} from '#core/limits/archive-impact.ts';
import { entityDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { Queryable } from '#server/db/db.ts';
import { onBeforeArchive, type BeforeArchive } from '#server/entities/archive-hooks.ts';
import { listWhereUsed } from '#server/entities/where-used.ts';
import { computableLimitsInput } from './computable-input.ts';

/**
 * The uses that move limits: an active in a product, equipment or a product in a production.
 * Other records naming it (a sampling location on the equipment) do not change a limit.
 */
const LIMITS_USES: Record<LimitsEntityKey, { entity: string; field: string }> = {
  actives: { entity: 'products', field: 'actives' },
  equipment: { entity: 'productions', field: 'equipmentIds' },
  products: { entity: 'productions', field: 'productIds' },
};

/** Live records that use the one being archived: "product 'Tab 10 mg'", "production 'Line 1'". */
async function whereUsed(
  q: Queryable,
  def: EntityDef,
  key: LimitsEntityKey,
  facilityId: number,
  id: number,
): Promise<string[]> {
  const use = LIMITS_USES[key];
  // Whoever archives must hear of every use, records they may not read included.
  const { usedBy } = await listWhereUsed(q, {
    def,
    facilityId,
    id,
    canRead: () => true,
    only: (r) => r.def.key === use.entity && r.field.name === use.field,
  });
  return usedBy.flatMap((group) => {
    const label = entityDef(group.entity).label.toLowerCase();
    const named = group.records.map((r) => `${label} '${r.name}'`);
    const more = group.total - group.records.length;
    return more > 0 ? [...named, `${more} more ${group.label.toLowerCase()}`] : named;
  });
}

/**
 * Archiving an active still in a product, or equipment or a product still in a production,
 * changes limits (an archived active leaves its products, which then look cleaner than they
 * are). It is a decision: refused with where the record is used and which limits change, as
 * the what-if engine computes it, until the request confirms the impact.
 */
const confirmLimitsImpact: BeforeArchive = async (q, def, scope, record, options) => {
  if (!isLimitsEntity(def.key) || options.confirmImpact === true) return;
  const usedIn = await whereUsed(q, def, def.key, scope.facilityId, record.id);
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
