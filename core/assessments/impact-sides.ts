import type { CompiledLimits } from '../limits/compile.ts';
import { isLower } from '../limits/compile.ts';
import { itemRinseLimit } from '../limits/matrix.ts';
import type { PairView } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import type { Quantity } from '../units/quantity.ts';
import { sampleAmount } from './impact-units.ts';
import type { SampleType } from './impact-units.ts';
import { LowestLimits } from './lowest-limits.ts';

/**
 * A train's computed worst-case product before and after the change (null: none), as the one
 * computation names it for the ranking, its reports and the cleaning assessment: the ranking's
 * selection criteria over the train's products (server limits/worst-products.service.ts). The
 * impact does not choose it; it only derives the train's limits for it, as assessLimits does.
 */
export interface TrainWorstCase {
  before: string | null;
  after: string | null;
}

/** A production: an equipment train and the products made on it. */
export interface ImpactTrain {
  name: string;
  products: string[];
  equipment: string[];
}

/**
 * An analytical method and its limit of quantitation for one kind of sample. A swab LOQ per swab
 * (mg/swab, ug/swab) or as a concentration in the swab extract (mg/ml, ug/ml, mg/L, ppm: × the
 * extraction volume); a rinse LOQ as a concentration (mg/ml, ug/ml, mg/L, ppm) or per rinse
 * (mg/rinse: ÷ the rinse volume).
 */
export interface AnalyticalMethod {
  name: string;
  sampleType: SampleType;
  loq: Quantity<string>;
  /** Actives (or products) the method measures; absent = every product. */
  residues?: string[];
}

/**
 * A sample result (issue 12): the amount found after `previous`, on the pair with `next` and on
 * `equipment` when given (else the lowest limit over the pairs that match). Swab values per swab
 * (mg/swab, ug/swab, or a concentration in the extract); rinse values per rinse (mg/rinse) or as
 * a concentration (mg/ml, ug/ml, mg/L, ppm).
 */
export interface SampleResult {
  id: string;
  previous: string;
  next?: string;
  equipment?: string;
  sampleType: SampleType;
  value: Quantity<string>;
}

/**
 * What one side (before or after) of a change gives, in the engine's units (mg, mg/sqcm,
 * mg/swab, mg/ml), indexed by that side's product positions; filled pair by pair.
 */
export class ImpactSide {
  readonly input: LimitsInput;
  readonly productIndex: Map<string, number>;
  /** Per previous product, over all its pairs. */
  readonly lowest: LowestLimits;
  /** Per train member (`trainBase[t] + place`), over the pairs of the train's products. */
  readonly trainLowest: LowestLimits;
  readonly trainBase: Int32Array;
  /** Per train, product index → place among its members (-1 = not a member). */
  private readonly trainPlace: Int32Array[];
  private readonly trainsOf: number[][];
  /** Per method, the LOQ in mg/swab or mg/ml, which products it measures, and pairs below it. */
  readonly loq: Float64Array;
  readonly measures: Uint8Array[];
  readonly pairsBelow: Int32Array[];
  private readonly methods: readonly AnalyticalMethod[];
  /** Per result, the lowest limit of the pairs it belongs to, and how many. */
  readonly resultLimit: Float64Array;
  readonly resultPairs: Int32Array;
  readonly resultValue: Float64Array;
  private readonly resultsOf: (number[] | undefined)[];
  private readonly resultNext: Int32Array;
  private readonly resultEquipment: Int32Array;
  private readonly results: readonly SampleResult[];
  pairCount = 0;
  /** The pair being folded's MACO, SAL, swab and rinse limits. */
  private readonly limits = new Float64Array(4);

  constructor(
    input: LimitsInput,
    trains: readonly ImpactTrain[],
    methods: readonly AnalyticalMethod[],
    results: readonly SampleResult[],
    /**
     * The before side: an LOQ or result it cannot express (e.g. no extraction volume before the
     * change) counts as unknown, so the after side alone decides and the item is reported.
     */
    lenient = false,
  ) {
    this.input = input;
    const amount = (q: Quantity<string>, type: SampleType, what: string) => {
      try {
        return sampleAmount(q, type, input.sampling, what);
      } catch (error) {
        if (lenient) return Number.NaN;
        throw error;
      }
    };
    const count = input.products.length;
    this.productIndex = new Map(input.products.map((product, i) => [product.id, i]));
    this.lowest = new LowestLimits(count);

    this.trainsOf = Array.from({ length: count }, () => []);
    this.trainPlace = [];
    this.trainBase = new Int32Array(trains.length + 1);
    trains.forEach((train, t) => {
      const place = new Int32Array(count).fill(-1);
      const members: number[] = [];
      for (const id of train.products) {
        const p = this.productIndex.get(id);
        if (p === undefined || (place[p] ?? -1) >= 0) continue;
        place[p] = members.length;
        members.push(p);
        this.trainsOf[p]?.push(t);
      }
      this.trainPlace.push(place);
      this.trainBase[t + 1] = (this.trainBase[t] ?? 0) + members.length;
    });
    this.trainLowest = new LowestLimits(this.trainBase[trains.length] ?? 0);

    this.methods = methods;
    this.loq = Float64Array.from(methods, (method) =>
      amount(method.loq, method.sampleType, `method ${method.name}: LOQ`),
    );
    this.measures = methods.map((method) => {
      const residues = method.residues ? new Set(method.residues) : undefined;
      return Uint8Array.from(input.products, (product) =>
        !residues ||
        residues.has(product.id) ||
        product.actives.some((active) => residues.has(active.id))
          ? 1
          : 0,
      );
    });
    this.pairsBelow = methods.map(() => new Int32Array(count));

    this.results = results;
    this.resultLimit = new Float64Array(results.length).fill(Number.NaN);
    this.resultPairs = new Int32Array(results.length);
    this.resultValue = Float64Array.from(results, (result) =>
      amount(result.value, result.sampleType, `result ${result.id}`),
    );
    this.resultsOf = new Array<number[] | undefined>(count);
    const equipmentIndex = new Map(input.equipment.map((item, e) => [item.id, e]));
    this.resultNext = new Int32Array(results.length);
    this.resultEquipment = new Int32Array(results.length);
    results.forEach((result, r) => {
      const p = this.productIndex.get(result.previous);
      this.resultNext[r] =
        result.next === undefined ? -1 : (this.productIndex.get(result.next) ?? -2);
      this.resultEquipment[r] =
        result.equipment === undefined ? -1 : (equipmentIndex.get(result.equipment) ?? -2);
      if (p !== undefined) (this.resultsOf[p] ??= []).push(r);
    });
  }

  /**
   * Folds one pair of this side's matrix. Its limits go on in one array reused pair after pair,
   * and no iterator is made: nothing is allocated a pair (issue 34, LowestLimits.fold).
   */
  add(view: PairView, m: CompiledLimits): void {
    const p = view.previous;
    const n = view.next;
    const limits = this.limits;
    limits[0] = view.maco;
    limits[1] = view.sal;
    limits[2] = view.swabLimit;
    limits[3] = view.rinseLimit;
    this.pairCount++;
    this.lowest.fold(p, limits, view.governing);
    const trains = this.trainsOf[p];
    for (let i = 0; trains && i < trains.length; i++) {
      const t = trains[i] ?? 0;
      const place = this.trainPlace[t];
      if (!place || (place[n] ?? -1) < 0) continue;
      const at = (this.trainBase[t] ?? 0) + (place[p] ?? 0);
      this.trainLowest.fold(at, limits, view.governing);
    }
    for (let i = 0; i < this.methods.length; i++) {
      if (this.measures[i]?.[p] !== 1) continue;
      const below = this.pairsBelow[i];
      const limit = this.methods[i]?.sampleType === 'swab' ? view.swabLimit : view.rinseLimit;
      if (below && limit < (this.loq[i] ?? Number.NaN)) below[p] = (below[p] ?? 0) + 1;
    }
    const results = this.resultsOf[p];
    for (let i = 0; results && i < results.length; i++) this.addResult(results[i] ?? 0, view, m);
  }

  private addResult(r: number, view: PairView, m: CompiledLimits): void {
    const next = this.resultNext[r] ?? -1;
    if (next !== -1 && next !== view.next) return;
    const e = this.resultEquipment[r] ?? -1;
    let onItem = e === -1;
    for (let i = 0; !onItem && i < view.sharedCount; i++) onItem = view.shared[i] === e;
    if (!onItem) return;
    // On one item, a rinse is of that item alone: its own area and share of the MACO.
    const limit =
      this.results[r]?.sampleType === 'swab'
        ? view.swabLimit
        : e >= 0
          ? itemRinseLimit(m, view, e).value
          : view.rinseLimit;
    this.resultPairs[r] = (this.resultPairs[r] ?? 0) + 1;
    if (isLower(limit, this.resultLimit[r] ?? Number.NaN)) this.resultLimit[r] = limit;
  }

  /** Where `product` is folded on train `t` (`trainBase[t] + place`), or -1 if not a member. */
  trainSlot(t: number, product: string | null): number {
    const p = product === null ? undefined : this.productIndex.get(product);
    const place = p === undefined ? -1 : (this.trainPlace[t]?.[p] ?? -1);
    return place < 0 ? -1 : (this.trainBase[t] ?? 0) + place;
  }
}
