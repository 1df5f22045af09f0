import type { LimitsInput } from '#core/limits/model.ts';
import type { Queryable } from '#server/db/db.ts';
import { studyCarbonFraction } from '../verification/runs/run-plan.ts';

/*
 * The carbon fraction a total organic carbon result on an item would be converted by, for the
 * method-fitness check: as a study's (studyCarbonFraction), over the products made on the item,
 * any of which may be the residue there (the limit is taken equipment-wise over every pair).
 */

const productsOn = (input: LimitsInput, equipmentName: string): string[] =>
  Object.entries(input.trains)
    .filter(([, items]) => items.includes(equipmentName))
    .map(([product]) => product);

/** By equipment name: the lowest carbon fraction of the actives made on it, or null. */
export async function carbonFractionsOn(
  q: Queryable,
  facilityId: number,
  input: LimitsInput,
  equipmentNames: readonly string[],
): Promise<Map<string, number | null>> {
  const names = [...new Set(equipmentNames)];
  const fractions = await Promise.all(
    names.map((name) => studyCarbonFraction(q, facilityId, input, productsOn(input, name))),
  );
  return new Map(names.map((name, i) => [name, fractions[i]!]));
}
