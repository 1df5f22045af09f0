import { CRITERION_COUNT, criterionKeyAt } from './compile.ts';
import type { CriterionKey } from './compile.ts';
import { criteriaByKey } from './matrix.ts';
import { criteriaMovedAt, moved, percent, walkPairs } from './pair-walk.ts';
import type { ActiveSpec, AmountQuantity, LimitsInput, ProductSpec } from './model.ts';
import type { QuantityOf } from '../units/quantity.ts';

/**
 * What-if: the limits engine's input with a few values changed before they are saved, and the
 * pairs whose limits move. Pure, so the browser runs it on the input GET {F}/limits/input gave.
 */
export type WhatIfEdit =
  | { kind: 'pde'; active: string; value: QuantityOf<'mass'> }
  | { kind: 'minBatchSize'; product: string; value: AmountQuantity }
  | { kind: 'maxDailyDose'; product: string; value: AmountQuantity }
  | { kind: 'surfaceArea'; equipment: string; value: QuantityOf<'area'> }
  /** Archiving: the active leaves every product that contains it. */
  | { kind: 'archiveActive'; active: string }
  /** Archiving: the item leaves the facility and every train. */
  | { kind: 'archiveEquipment'; equipment: string }
  /** Archiving: the product leaves the facility, with every pair it is in. */
  | { kind: 'archiveProduct'; product: string }
  | {
      kind: 'addProduct';
      product: string;
      active: string;
      minBatchSize: AmountQuantity;
      maxDailyDose: AmountQuantity;
      equipment: string[];
    };

function activeById(input: LimitsInput, id: string): ActiveSpec | undefined {
  for (const product of input.products) {
    const found = product.actives.find((active) => active.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The input with the edits applied in order; the given input is left as it was. */
export function applyWhatIf(input: LimitsInput, edits: readonly WhatIfEdit[]): LimitsInput {
  let products: ProductSpec[] = input.products;
  let equipment = input.equipment;
  let trains = input.trains;
  for (const edit of edits) {
    switch (edit.kind) {
      case 'pde':
        // An active's PDE is the same in every product that contains it.
        products = products.map((product) =>
          product.actives.some((active) => active.id === edit.active)
            ? {
                ...product,
                actives: product.actives.map((active) =>
                  active.id === edit.active ? { ...active, pde: edit.value } : active,
                ),
              }
            : product,
        );
        break;
      case 'minBatchSize':
      case 'maxDailyDose':
        products = products.map((product) =>
          product.id === edit.product ? { ...product, [edit.kind]: edit.value } : product,
        );
        break;
      case 'surfaceArea':
        equipment = equipment.map((item) =>
          item.id === edit.equipment ? { ...item, surfaceArea: edit.value } : item,
        );
        break;
      case 'archiveActive':
        products = products.map((product) => ({
          ...product,
          actives: product.actives.filter((active) => active.id !== edit.active),
        }));
        break;
      case 'archiveEquipment':
        equipment = equipment.filter((item) => item.id !== edit.equipment);
        trains = Object.fromEntries(
          Object.entries(trains).map(([p, items]) => [
            p,
            items.filter((e) => e !== edit.equipment),
          ]),
        );
        break;
      case 'archiveProduct':
        products = products.filter((product) => product.id !== edit.product);
        trains = Object.fromEntries(Object.entries(trains).filter(([p]) => p !== edit.product));
        break;
      case 'addProduct': {
        const active = activeById({ ...input, products }, edit.active);
        if (!active) throw new Error(`no active named '${edit.active}'`);
        if (products.some((product) => product.id === edit.product)) {
          throw new Error(`a product named '${edit.product}' already exists`);
        }
        // Appended, so the existing products keep their places in the matrix.
        products = [
          ...products,
          {
            id: edit.product,
            minBatchSize: edit.minBatchSize,
            maxDailyDose: edit.maxDailyDose,
            actives: [active],
          },
        ];
        trains = { ...trains, [edit.product]: [...edit.equipment] };
        break;
      }
    }
  }
  return { ...input, products, equipment, trains };
}

/** One pair whose limits moved, or that falls below the threshold. Values in mg and mg/sqcm. */
export interface PairChange {
  previous: string;
  next: string;
  macoBefore: number | null;
  macoAfter: number | null;
  /** Percent change of MACO, null when either side has none. */
  macoChange: number | null;
  salBefore: number | null;
  salAfter: number | null;
  salChange: number | null;
  /** Only in the changed input (a product added). */
  isNew: boolean;
  /** MACO or SAL lower than before. */
  isLower: boolean;
  /** SAL after the change below the threshold. */
  isBelow: boolean;
  /** Below the threshold now, and was not before. */
  isNewlyBelow: boolean;
}

/**
 * A pair whose MACO and SAL stay while one of its criteria moves (issue 30): its criteria before
 * and after in mg and the one that governs, what criteriaSentence words.
 */
export interface StayingPair {
  previous: string;
  next: string;
  before: { criterion: CriterionKey | null };
  after: { criterion: CriterionKey | null };
  criteria: {
    unit: 'mg';
    before: Record<CriterionKey, number | null>;
    after: Record<CriterionKey, number | null>;
  };
}

export interface WhatIfResult {
  changes: PairChange[];
  /** Pairs whose MACO and SAL stay while a criterion moves, over every pair. */
  criteriaMoved: number;
  /** The first `maxRows` of them: why nothing moved, when nothing did. */
  staying: StayingPair[];
  /** Pairs that qualified for `changes` before it was cut to `maxRows`. */
  total: number;
  /** Counts over every pair, also when `changes` was cut to `maxRows`. */
  moved: number;
  lower: number;
  below: number;
  newlyBelow: number;
  added: number;
  pairsBefore: number;
  pairsAfter: number;
}

export interface WhatIfOptions {
  /** A surface limit in mg/sqcm (e.g. the method's LOQ over the swab area); pairs under it are flagged. */
  salThreshold?: number | undefined;
  /** At most this many changes are listed, the most important first. Default 1,000. */
  maxRows?: number | undefined;
}

const value = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Compares the two inputs pair by pair (the shared walk of `pair-walk.ts`). */
export function compareLimits(
  before: LimitsInput,
  after: LimitsInput,
  options: WhatIfOptions = {},
): WhatIfResult {
  const threshold = options.salThreshold;
  const result: WhatIfResult = {
    changes: [],
    criteriaMoved: 0,
    staying: [],
    total: 0,
    moved: 0,
    lower: 0,
    below: 0,
    newlyBelow: 0,
    added: 0,
    pairsBefore: 0,
    pairsAfter: 0,
  };
  const names = after.products;
  const maxRows = options.maxRows ?? 1000;
  const criteriaThen = new Float64Array(CRITERION_COUNT);
  walkPairs(before, after, {
    onPair(view, then, b) {
      result.pairsAfter++;
      const isNew = !then;
      const macoBefore = then ? then.maco : NaN;
      const salBefore = then ? then.sal : NaN;
      const didMove = !isNew && (moved(macoBefore, view.maco) || moved(salBefore, view.sal));
      const isLower =
        didMove &&
        ((view.maco < macoBefore && moved(macoBefore, view.maco)) ||
          (view.sal < salBefore && moved(salBefore, view.sal)));
      const isBelow = threshold !== undefined && view.sal < threshold;
      const wasBelow = threshold !== undefined && !isNew && salBefore < threshold;
      const isNewlyBelow = isBelow && !wasBelow;
      if (then && !didMove && criteriaMovedAt(b, then, view.criteria, criteriaThen)) {
        if (result.criteriaMoved++ < maxRows) {
          result.staying.push({
            previous: names[view.previous]?.id ?? '',
            next: names[view.next]?.id ?? '',
            before: { criterion: criterionKeyAt(then.governing) },
            after: { criterion: criterionKeyAt(view.governing) },
            criteria: {
              unit: 'mg',
              before: criteriaByKey(criteriaThen),
              after: criteriaByKey(view.criteria),
            },
          });
        }
      }
      if (!isNew && !didMove && !isBelow) return;
      if (isNew) result.added++;
      if (didMove) result.moved++;
      if (isLower) result.lower++;
      if (isBelow) result.below++;
      if (isNewlyBelow) result.newlyBelow++;
      result.changes.push({
        previous: names[view.previous]?.id ?? '',
        next: names[view.next]?.id ?? '',
        macoBefore: value(macoBefore),
        macoAfter: value(view.maco),
        macoChange: percent(macoBefore, view.maco),
        salBefore: value(salBefore),
        salAfter: value(view.sal),
        salChange: percent(salBefore, view.sal),
        isNew,
        isLower,
        isBelow,
        isNewlyBelow,
      });
    },
    onBefore() {
      result.pairsBefore++;
    },
  });
  result.total = result.changes.length;
  result.changes.sort(byImportance);
  result.changes.length = Math.min(result.changes.length, maxRows);
  return result;
}

/** Newly below the threshold first, then lower than before, then the largest moves. */
function byImportance(a: PairChange, b: PairChange): number {
  const rank = (c: PairChange) => (c.isNewlyBelow ? 0 : c.isLower ? 1 : c.isBelow ? 2 : 3);
  const size = (c: PairChange) => Math.max(Math.abs(c.macoChange ?? 0), Math.abs(c.salChange ?? 0));
  return rank(a) - rank(b) || size(b) - size(a);
}
