import { PERIODIC_VERIFICATION_DAYS } from '#core/schemas/dashboard.schemas.ts';
import { latestStudyOf, validationState } from '#core/verification/coverage.ts';
import type { Queryable } from '#server/db/db.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';
import { studyCoverage, type ScopedStudy } from '../verification/studies/study-coverage.ts';

/*
 * Whether a changeover is covered by a Validated study (issue 31): cleaning after `from` on each
 * item must rest on the latest study that covers the item for that product, and that study must
 * be Validated and not past its periodic verification (EU GMP Annex 15 §10.1, §10.11; the same
 * coverage model the dashboard reads, core/verification/coverage.ts). What is not covered needs
 * verification sampling, and the reasons say why in words.
 */

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
  const [all, names, products] = await Promise.all([
    studyCoverage(q, facilityId),
    q.query<{ id: number; name: string }>(
      'select id, name from equipment where facility_id = $1 and id = any($2::int[])',
      [facilityId, [...equipmentIds]],
    ),
    q.query<{ name: string }>('select name from products where facility_id = $1 and id = $2', [
      facilityId,
      fromProductId,
    ]),
  ]);
  const product = products[0]?.name ?? `product ${fromProductId}`;
  const nameOf = (id: number) => names.find((n) => n.id === id)?.name ?? `equipment ${id}`;
  const forProduct = all.filter((s) => s.productIds.includes(fromProductId));
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
