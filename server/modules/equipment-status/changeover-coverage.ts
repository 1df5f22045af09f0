import { PERIODIC_VERIFICATION_DAYS } from '#core/schemas/dashboard.schemas.ts';
import { latestStudyOf, validationState } from '#core/verification/coverage.ts';
import type { Queryable } from '#server/db/db.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';
import { studyCoverage, type ScopedStudy } from '../verification/studies/study-coverage.ts';

/*
 * Whether a changeover is covered by a Validated study (issue 31): cleaning after `from` on each
 * item must rest on the latest study that covers the item for that product (by name, or by its
 * product group: productCover), and that study must
 * be Validated and not past its periodic verification (EU GMP Annex 15 §10.1, §10.11; the same
 * coverage model the dashboard reads, core/verification/coverage.ts). What is not covered needs
 * verification sampling, and the reasons say why in words.
 */

/** What a protocol (or the protocol a study pinned) says it covers of products. */
export interface ProductScope {
  productIds?: readonly number[] | null | undefined;
  productGroupId?: number | null | undefined;
}

/**
 * Whether a protocol covers a product: it names the product, or it names a product group the
 * product belongs to (grouping: the worst case validated for the group stands for each of its
 * products). The groups are read as they stand, live ones only, so a product taken out of a
 * group, or an archived group, no longer rests on its worst case.
 */
export async function productCover(q: Queryable, facilityId: number, productId: number) {
  const groups = await q.query<{ id: number }>(
    `select id from product_groups
      where facility_id = $1 and archived_at is null and $2 = any(product_ids)`,
    [facilityId, productId],
  );
  const groupIds = groups.map((g) => g.id);
  return {
    groupIds,
    covers: (scope: ProductScope | null | undefined) =>
      (scope?.productIds ?? []).includes(productId) ||
      (scope?.productGroupId != null && groupIds.includes(Number(scope.productGroupId))),
  };
}

export interface ChangeoverCoverage {
  validated: boolean;
  reasons: string[];
  /** The latest covering study of each item, Validated or not (the protocol to follow). */
  studies: ScopedStudy[];
}

export async function changeoverCoverage(
  q: Queryable,
  facilityId: number,
  equipmentIds: readonly number[],
  fromProductId: number,
  now: Date,
): Promise<ChangeoverCoverage> {
  const [all, names, products, groupsOfStudies, cover] = await Promise.all([
    studyCoverage(q, facilityId),
    q.query<{ id: number; name: string }>(
      'select id, name from equipment where facility_id = $1 and id = any($2::int[])',
      [facilityId, [...equipmentIds]],
    ),
    q.query<{ name: string }>('select name from products where facility_id = $1 and id = $2', [
      facilityId,
      fromProductId,
    ]),
    q.query<{ id: number; product_group_id: number }>(
      `select id, (protocol_content ->> 'productGroupId')::int as product_group_id from studies
        where facility_id = $1 and protocol_content ->> 'productGroupId' is not null`,
      [facilityId],
    ),
    productCover(q, facilityId, fromProductId),
  ]);
  const groupOf = new Map(groupsOfStudies.map((s) => [s.id, s.product_group_id]));
  const product = products[0]?.name ?? `product ${fromProductId}`;
  const nameOf = (id: number) => names.find((n) => n.id === id)?.name ?? `equipment ${id}`;
  const forProduct = all.filter((s) =>
    cover.covers({ productIds: s.productIds, productGroupId: groupOf.get(s.id) }),
  );
  const latest = latestStudyOf(equipmentIds, forProduct);
  const reasons: string[] = [];
  if (equipmentIds.length === 0) reasons.push('The production has no equipment');
  for (const id of equipmentIds) {
    const study = latest.get(id) ?? null;
    const state = validationState(study, now, PERIODIC_VERIFICATION_DAYS);
    if (state === 'Validated') continue;
    if (!study) reasons.push(`No study covers the cleaning of ${nameOf(id)} after ${product}`);
    else if (state === 'Overdue')
      reasons.push(
        `Study ${studyNumberOf(study.seq)} covering ${nameOf(id)} after ${product} is overdue for periodic verification (Validated ${study.at.slice(0, 10)}, every ${PERIODIC_VERIFICATION_DAYS} days)`,
      );
    else
      reasons.push(
        `Study ${studyNumberOf(study.seq)} covering ${nameOf(id)} after ${product} is ${state}, not Validated`,
      );
  }
  const studies = [...new Set([...latest.values()].filter((s) => s !== null))];
  return { validated: reasons.length === 0, reasons, studies };
}
