import { convertValue, toBase } from '../units/quantity.ts';
import type { UnitKind } from '../units/units.ts';
import { isUnit, kindOf } from '../units/units.ts';
import { noelFromLd50 } from './formulas.ts';
import { compileMacFormulas, type MacFormulaSet } from './mac-formula.ts';
import type { AmountQuantity, LimitsInput, ProductSpec } from './model.ts';
import { sampleConcentrationMgPerMl } from './sample-limits.ts';
import { effectiveArl, effectiveSafetyFactor, sampleRecoveryFraction } from './policy.ts';
import { activeResidueType, hbelOf } from './residue-type.ts';

/** Index of each criterion in the per-pair criteria vector. */
export const HEALTH = 0;
export const DOSE = 1;
export const LD50 = 2;
export const ARL = 3;
export const PRODUCT = 4;
/** The lowest of the facility's approved MAC formulas (mac-formula.ts). */
export const FORMULA = 5;
export const CRITERION_COUNT = 6;
export const CRITERION_KEYS = ['health', 'dose', 'ld50', 'arl', 'product', 'formula'] as const;
export type CriterionKey = (typeof CRITERION_KEYS)[number];
/** The key of a criterion index (a pair's governing one), null for -1 (none). */
export const criterionKeyAt = (index: number): CriterionKey | null =>
  index < 0 ? null : (CRITERION_KEYS[index] ?? null);

/**
 * Values within this relative distance count as equal when the lowest is chosen, so that a tie
 * the contract breaks by order (health, dose, ld50, arl; first active; first pair) is not decided
 * by the last bit of a rounding that depends on the order of the arithmetic.
 */
export const TIE_TOLERANCE = 1e-12;
const BELOW = 1 - TIE_TOLERANCE;

/** True when `value` is lower than `best` by more than the tie tolerance (both positive). */
export function isLower(value: number, best: number): boolean {
  return value < best * BELOW || (Number.isNaN(best) && !Number.isNaN(value));
}

/**
 * The input turned into flat typed arrays in base units (mg, sqcm, ml), so that the matrix loop
 * does no unit work and allocates nothing. A value that is not available is NaN, an index -1.
 * Everything a pair needs from its previous product is folded into one factor per criterion:
 * criterion(P→N) = factor(P) × MBS(N)/MDD(N), because MBS/MDD is the only thing N contributes.
 */
export interface CompiledLimits {
  readonly input: LimitsInput;
  readonly productCount: number;
  readonly equipmentCount: number;
  /** MBS/MDD of each product as next, in one basis (both mass, both volume or both units). */
  readonly batchToDoseRatio: Float64Array;
  /** MBS and MDD of each product in the base unit of their common kind (mg, ml or units). */
  readonly minBatchSize: Float64Array;
  readonly maxDailyDose: Float64Array;
  /** Divisor of each criterion's numerator: MF for health, SF for dose and LD50, else 1. */
  readonly divisor: Float64Array;
  /** Batch mass in kg for the general limit (volume at 1 g/ml, units × unit weight), or NaN. */
  readonly batchMassKg: Float64Array;
  /**
   * Per previous product and criterion, the lowest numerator over its actives (HBEL, TDD or NOEL
   * in mg/day; ARL in ppm; the product limit in mg; NaN = null) and the active that gave it. A
   * pair's value is numerator × MBS / (divisor × MDD) in the order the contract writes it, or
   * ARL × batch mass for the general limit.
   */
  readonly factor: Float64Array;
  readonly factorActive: Int32Array;
  /** Each product's train as sorted, de-duplicated equipment indices (input order). */
  readonly trainStart: Int32Array;
  readonly trainItems: Int32Array;
  /**
   * The same trains the other way round, equipment → products: the products made on item e are
   * `equipmentProducts[equipmentStart[e] .. equipmentStart[e + 1])`, ascending. The matrix finds
   * a product's pairs through it instead of comparing it with every other product.
   */
  readonly equipmentStart: Int32Array;
  readonly equipmentProducts: Int32Array;
  readonly trainArea: Float64Array;
  readonly equipmentArea: Float64Array;
  readonly swabAreaSqcm: number;
  readonly rinseVolumeMl: number;
  /** Per-sample caps (useSampleLimit), mg/swab and mg/ml; NaN when not used. */
  readonly swabCap: number;
  readonly rinseCap: number;
  /**
   * Fixed sample limits (useFixedSampleLimits), mg/swab and mg/ml: ceilings on the calculated
   * swab and rinse limits (matrix.ts `ceiling()`), never a loosening. NaN when not used: NaN is
   * never below a limit, so the switch off leaves every limit as calculated.
   */
  readonly fixedSwab: number;
  readonly fixedRinse: number;
  /** Recovery fraction of the swab and of the rinse sampling (their own, or the policy's). */
  readonly swabRecovery: number;
  readonly rinseRecovery: number;
  /** useSAR: the rinse limit derives from the surface limit; otherwise from the MACO (APIC). */
  readonly useSar: boolean;
  /** The residue-limit cap in mg/sqcm, NaN when not used. */
  readonly residueLimit: number;
  readonly previousTrainBasis: boolean;
  readonly firstAvailable: boolean;
  /** Which criteria exist in this policy's output. */
  readonly useProductLimit: boolean;
  /** The facility's MAC formulas with the values they read; null when it has none. */
  readonly macFormulas: MacFormulaSet | null;
}

const AMOUNT_KINDS: readonly UnitKind[] = ['mass', 'volume', 'count'];

export function amountKind(q: AmountQuantity): 'mass' | 'volume' | 'count' {
  const kind = isUnit(q.unit) ? kindOf(q.unit) : undefined;
  if (kind !== 'mass' && kind !== 'volume' && kind !== 'count') {
    throw new Error(`${q.unit} is not a batch size or dose unit (${AMOUNT_KINDS.join(', ')})`);
  }
  return kind;
}

/** MBS / MDD in one basis; throws when the two are of different kinds (a mixed basis, case G06). */
export function batchToDoseRatio(product: ProductSpec): number {
  const kind = amountKind(product.minBatchSize);
  if (amountKind(product.maxDailyDose) !== kind) {
    throw new Error(`minBatchSize and maxDailyDose of ${product.id} are of different kinds`);
  }
  return toBase(product.minBatchSize, kind) / toBase(product.maxDailyDose, kind);
}

/** Mass of one dosage unit in mg; a unit given in volume counts at 1 g/ml. */
export function unitMassMg(unitWeight: NonNullable<ProductSpec['unitWeight']>): number {
  return isUnit(unitWeight.unit) && kindOf(unitWeight.unit) === 'volume'
    ? toBase(unitWeight, 'volume') * 1_000
    : toBase(unitWeight, 'mass');
}

/** Contract: a batch mass from MBS as mass, a volume at 1 g/ml, or units × unit weight. */
export function batchMassKg(product: ProductSpec): number {
  const kind = amountKind(product.minBatchSize);
  if (kind === 'mass') return toBase(product.minBatchSize, 'mass') / 1_000_000;
  if (kind === 'volume') return toBase(product.minBatchSize, 'volume') / 1_000;
  if (product.unitWeight === undefined) return Number.NaN;
  return (product.minBatchSize.value * unitMassMg(product.unitWeight)) / 1_000_000;
}

/** MDD as a mass in mg, on the same basis as `batchMassKg` (volume at 1 g/ml, units × unit weight). */
export function dailyDoseMg(product: ProductSpec): number {
  const kind = amountKind(product.maxDailyDose);
  if (kind === 'mass') return toBase(product.maxDailyDose, 'mass');
  if (kind === 'volume') return toBase(product.maxDailyDose, 'volume') * 1_000;
  if (product.unitWeight === undefined) return Number.NaN;
  return product.maxDailyDose.value * unitMassMg(product.unitWeight);
}

/**
 * A product's train. Own properties only: a product called `constructor` or `__proto__` must not
 * find Object.prototype's members.
 */
export function trainOf(trains: Record<string, string[]>, productId: string): readonly string[] {
  return Object.hasOwn(trains, productId) ? (trains[productId] ?? []) : [];
}

/** The policy's per-sample caps and fixed sample limits in mg/swab and mg/ml (spec §3). */
function sampleLimitRules(input: LimitsInput) {
  const { policy, sampling } = input;
  const representation = policy.limitRepresentation;
  const extraction = sampling.extractionVolume
    ? toBase(sampling.extractionVolume, 'volume')
    : Number.NaN;
  return {
    swabCap: policy.useSampleLimit
      ? sampleConcentrationMgPerMl(policy.swabSampleLimit, representation.sampleLimits.swab.unit) *
        extraction
      : Number.NaN,
    rinseCap: policy.useSampleLimit
      ? sampleConcentrationMgPerMl(policy.rinseSampleLimit, representation.sampleLimits.rinse.unit)
      : Number.NaN,
    fixedSwab: policy.useFixedSampleLimits
      ? convertValue(policy.fixedSwabLimit, representation.reporting.swab.perSampleLimitUnit, 'mg')
      : Number.NaN,
    fixedRinse: policy.useFixedSampleLimits
      ? sampleConcentrationMgPerMl(
          policy.fixedRinseLimit,
          representation.reporting.rinse.concentrationLimitUnit,
        )
      : Number.NaN,
  };
}

/**
 * Inverts the trains (product → items) into equipment → products by a counting sort, so each
 * item's products come out in ascending order.
 */
function productsByEquipment(
  trainStart: Int32Array,
  trainItems: Int32Array,
  equipmentCount: number,
): { start: Int32Array; products: Int32Array } {
  const start = new Int32Array(equipmentCount + 1);
  for (const e of trainItems) start[e + 1] = (start[e + 1] ?? 0) + 1;
  for (let e = 0; e < equipmentCount; e++) start[e + 1] = (start[e + 1] ?? 0) + (start[e] ?? 0);
  const products = new Int32Array(trainItems.length);
  const filled = start.slice(0, equipmentCount);
  for (let p = 0; p + 1 < trainStart.length; p++) {
    for (let t = trainStart[p] ?? 0; t < (trainStart[p + 1] ?? 0); t++) {
      const e = trainItems[t] ?? 0;
      products[filled[e] ?? 0] = p;
      filled[e] = (filled[e] ?? 0) + 1;
    }
  }
  return { start, products };
}

export function compileLimits(input: LimitsInput): CompiledLimits {
  const { policy, products, equipment, trains, sampling } = input;
  const productCount = products.length;
  const equipmentCount = equipment.length;
  const sf = effectiveSafetyFactor(policy);
  const bodyWeightKg = toBase(policy.bodyWeight, 'mass') / 1_000_000;
  const intermediate = policy.residueType === 'Intermediate';
  const arlPpm = toBase(effectiveArl(policy), 'concentration');
  const intermediateArlPpm = toBase(policy.intermediateArl, 'concentration');

  const ratio = new Float64Array(productCount);
  const mbs = new Float64Array(productCount);
  const mdd = new Float64Array(productCount);
  const massKg = new Float64Array(productCount);
  const factor = new Float64Array(productCount * CRITERION_COUNT).fill(Number.NaN);
  const factorActive = new Int32Array(productCount * CRITERION_COUNT).fill(-1);

  products.forEach((product, p) => {
    ratio[p] = batchToDoseRatio(product);
    const kind = amountKind(product.minBatchSize);
    mbs[p] = toBase(product.minBatchSize, kind);
    mdd[p] = toBase(product.maxDailyDose, kind);
    massKg[p] = batchMassKg(product);
    const base = p * CRITERION_COUNT;
    const consider = (criterion: number, value: number, activeIndex: number) => {
      // keeps the first active in input order on a tie
      if (isLower(value, factor[base + criterion] ?? Number.NaN)) {
        factor[base + criterion] = value;
        factorActive[base + criterion] = activeIndex;
      }
    };
    product.actives.forEach((active, a) => {
      // EMA HBEL guideline: the HBEL is the PDE/ADE; for a nitrosamine the ICH M7 acceptable intake.
      const residueType = activeResidueType(active, policy);
      const hbel = hbelOf(active, policy);
      if (hbel) consider(HEALTH, toBase(hbel.quantity, 'mass'), a);
      if (policy.useDosage && residueType === 'Chemical' && active.therapeuticDose) {
        consider(DOSE, toBase(active.therapeuticDose, 'mass'), a);
      }
      if (policy.useLd50 && residueType !== 'Nitrosamine' && active.ld50) {
        const noel = noelFromLd50(
          toBase(active.ld50, 'toxicity'),
          bodyWeightKg,
          policy.ld50EmpiricalFactor,
        );
        consider(LD50, noel, a);
      }
      // General limit per active (APIC MAXCONC): in an Intermediate policy an intermediate residue
      // has its own ARL (intermediateArl), the actives theirs (activesArl).
      if (policy.useARL) {
        const ppm = active.isIntermediate && intermediate ? intermediateArlPpm : arlPpm;
        consider(ARL, ppm, a);
      }
    });
    if (policy.useProductLimit && product.productLimit) {
      factor[base + PRODUCT] = toBase(product.productLimit, 'mass');
    }
  });

  const equipmentIndex = new Map<string, number>();
  const equipmentArea = new Float64Array(equipmentCount);
  equipment.forEach((item, e) => {
    equipmentIndex.set(item.id, e);
    equipmentArea[e] = toBase(item.surfaceArea, 'area');
  });

  const trainStart = new Int32Array(productCount + 1);
  const items: number[] = [];
  const trainArea = new Float64Array(productCount);
  products.forEach((product, p) => {
    trainStart[p] = items.length;
    const indices = new Set<number>();
    for (const id of trainOf(trains, product.id)) {
      const e = equipmentIndex.get(id);
      if (e !== undefined) indices.add(e);
    }
    const sorted = [...indices].sort((a, b) => a - b);
    let area = 0;
    for (const e of sorted) {
      items.push(e);
      area += equipmentArea[e] ?? 0;
    }
    trainArea[p] = area;
  });
  trainStart[productCount] = items.length;
  const trainItems = Int32Array.from(items);
  const { start: equipmentStart, products: equipmentProducts } = productsByEquipment(
    trainStart,
    trainItems,
    equipmentCount,
  );

  return {
    input,
    productCount,
    equipmentCount,
    batchToDoseRatio: ratio,
    minBatchSize: mbs,
    maxDailyDose: mdd,
    divisor: Float64Array.from([policy.modificationFactor, sf, sf, 1, 1, 1]),
    batchMassKg: massKg,
    factor,
    factorActive,
    trainStart,
    trainItems,
    equipmentStart,
    equipmentProducts,
    trainArea,
    equipmentArea,
    swabAreaSqcm: sampling.swabArea ? toBase(sampling.swabArea, 'area') : Number.NaN,
    rinseVolumeMl: sampling.rinseVolume ? toBase(sampling.rinseVolume, 'volume') : Number.NaN,
    ...sampleLimitRules(input),
    swabRecovery: sampleRecoveryFraction(policy, sampling.swabRecoveryPercentage),
    rinseRecovery: sampleRecoveryFraction(policy, sampling.rinseRecoveryPercentage),
    useSar: policy.useSAR !== false,
    residueLimit: policy.useResidueLimit ? toBase(policy.residueLimit, 'surfaceLimit') : Number.NaN,
    previousTrainBasis: policy.areaBasis === 'previousTrain',
    firstAvailable: policy.useFirstAvailableCriteria,
    useProductLimit: policy.useProductLimit,
    macFormulas:
      input.macFormulas && input.macFormulas.length > 0
        ? compileMacFormulas(
            input,
            Array.from(massKg, (kg) => kg * 1_000_000),
            products.map(dailyDoseMg),
          )
        : null,
  };
}
