import type { PropertyError } from '#core/errors/errors.ts';
import { validationError } from '#core/errors/errors.ts';
import {
  parsePropertyPath,
  propertyHeading,
  propertyInWords,
  type PropertyPath,
} from '#core/errors/property-path.ts';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { facilityLimitsRead, type FacilityInputOptions } from './facility-limits-input.ts';

export interface ComputableInput {
  input: LimitsInput;
  /** What was left out of `input`, and why: every limits view lists it. */
  uncomputable: TUncomputable[];
  /** With `asOf`: a record was read from before its history began, kept as of this moment. */
  historyStartsAt?: string | undefined;
}

const ITEM = /^(products|equipment)\[(\d+)\](?:\.(.*))?$/;
/** A path of the input inside a message ("… also at products[2].actives[0] …"). */
const PATH_IN_TEXT = /\b(?:products|equipment|trains)(?:\[\d+\]|\.\w+)+/g;

/**
 * A path of the input as a reviewer reads it: items by their names, fields in words
 * ("product ‘Aspirin’, active ‘Active X’, unit of PDE"), never 'products[3].actives[0].pde.unit'.
 * Actives are named from `product`, or from the product the path starts at.
 */
function inWords(
  input: LimitsInput,
  path: PropertyPath,
  product?: LimitsInput['products'][number],
) {
  const owner = product ?? (path[0] === 'products' ? input.products[Number(path[1])] : undefined);
  return propertyInWords(path, {
    itemName: (list, index) => {
      if (list === 'products') return input.products[index]?.id;
      if (list === 'equipment') return input.equipment[index]?.id;
      return list === 'actives' ? owner?.actives[index]?.id : undefined;
    },
  });
}

/** A problem of one item, without the item (the list of left-out items names it). */
function reasonOf(input: LimitsInput, list: string, index: number, rest: string, message: string) {
  const text = message.replace(PATH_IN_TEXT, (path) => inWords(input, parsePropertyPath(path)));
  if (!rest) return text;
  const product = list === 'products' ? input.products[index] : undefined;
  return `${inWords(input, parsePropertyPath(rest), product)}: ${text}`;
}

/**
 * The limits engine's input with every product and equipment item that breaks the limits
 * contract left out (data stored before a rule existed, a unit the engine does not take), so
 * that one bad record never stops the whole facility's limits: the rest is computed, and the
 * left-out ones are listed with the reason. The result is valid command-line input. A policy
 * the engine cannot use stops everything, as a DataValidationError.
 */
export function computable(input: LimitsInput): ComputableInput {
  const parsed = parseLimitsInput(JSON.parse(JSON.stringify(input)) as unknown);
  if (parsed.ok) return { input, uncomputable: [] };
  const bad = { products: new Map<number, string[]>(), equipment: new Map<number, string[]>() };
  const other: PropertyError[] = [];
  for (const error of parsed.errors) {
    const match = ITEM.exec(error.property);
    const message = Object.values(error.constraints).join('; ');
    if (!match) {
      // a train naming something left out is mended below; anything else is not per item
      if (!error.property.startsWith('trains.')) other.push(error);
      continue;
    }
    const [, list, index, rest] = match as unknown as [
      string,
      'products' | 'equipment',
      string,
      string?,
    ];
    const reasons = bad[list].get(Number(index)) ?? [];
    reasons.push(reasonOf(input, list, Number(index), rest ?? '', message));
    bad[list].set(Number(index), reasons);
  }
  if (other.length > 0)
    throw validationError(
      other,
      `The facility's limits cannot be computed: ${other.map((e) => `${propertyHeading(e.property)}: ${Object.values(e.constraints).join('; ')}`).join('; ')}`,
    );
  const uncomputable: TUncomputable[] = [];
  for (const [list, kind] of [
    ['products', 'product'],
    ['equipment', 'equipment'],
  ] as const)
    for (const [index, reasons] of bad[list])
      uncomputable.push({ kind, id: input[list][index]!.id, reason: reasons.join('; ') });
  const leftOut = new Set(uncomputable.map((u) => `${u.kind}:${u.id}`));
  const products = input.products.filter((p) => !leftOut.has(`product:${p.id}`));
  const equipment = input.equipment.filter((e) => !leftOut.has(`equipment:${e.id}`));
  const trains = Object.fromEntries(
    Object.entries(input.trains)
      .filter(([product]) => !leftOut.has(`product:${product}`))
      .map(([product, items]) => [product, items.filter((e) => !leftOut.has(`equipment:${e}`))]),
  );
  return { input: { ...input, products, equipment, trains }, uncomputable };
}

/** The facility's limits input, computable parts only (see `computable`). */
export async function computableLimitsInput(
  q: Queryable,
  facilityId: number,
  options: FacilityInputOptions = {},
): Promise<ComputableInput> {
  const { input, historyStartsAt } = await facilityLimitsRead(q, facilityId, options);
  return { ...computable(input), historyStartsAt };
}

/** A pair with a left-out product has no limits: 422 on that product, with the reason. */
export function refuseLeftOut(
  uncomputable: readonly TUncomputable[],
  previous: string,
  next: string,
): void {
  const leftOut = uncomputable.find(
    (u) => u.kind === 'product' && (u.id === previous || u.id === next),
  );
  if (!leftOut) return;
  throw validationError(
    [
      {
        property: leftOut.id === previous ? 'previous' : 'next',
        constraints: { computable: leftOut.reason },
      },
    ],
    `The limits of ${leftOut.id} cannot be computed: ${leftOut.reason}`,
  );
}
