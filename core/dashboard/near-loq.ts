import { sampleAmount } from '../assessments/impact-units.ts';
import type { SampleType } from '../assessments/impact-units.ts';
import { compileLimits } from '../limits/compile.ts';
import { runMatrix } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import type { Quantity } from '../units/quantity.ts';
import { isUnit, kindOf } from '../units/units.ts';
import type { TNearLoqPair } from '../schemas/dashboard.schemas.ts';

/** An analytical method as the dashboard compares it: its name and its LOQ as recorded. */
export interface LoqMethod {
  name: string;
  loq: Quantity<string> | null;
}

export interface NearLoq {
  count: number;
  pairs: TNearLoqPair[];
  note: string | null;
}

interface ComparableMethod {
  name: string;
  sampleType: SampleType;
  /** The LOQ in the engine's unit: mg/swab for a swab, mg/ml for a rinse. */
  loq: number;
}

/**
 * A swab LOQ is an amount per swab; any other LOQ is read as a concentration in the rinse (as the
 * change impact does: the swab extract needs an extraction volume the facility may not declare).
 */
function comparable(methods: readonly LoqMethod[], input: LimitsInput): ComparableMethod[] {
  const out: ComparableMethod[] = [];
  for (const method of methods) {
    if (!method.loq) continue;
    const sampleType: SampleType =
      isUnit(method.loq.unit) && kindOf(method.loq.unit) === 'swabLimit' ? 'swab' : 'rinse';
    try {
      const loq = sampleAmount(method.loq, sampleType, input.sampling, method.name);
      if (loq > 0 && Number.isFinite(loq)) out.push({ name: method.name, sampleType, loq });
    } catch {
      // An LOQ in a unit the limits cannot be compared with is left out.
    }
  }
  return out;
}

/**
 * The previous → next pairs whose swab or rinse limit is under `factor` × an analytical method's
 * LOQ: a result there is hard to tell from the method's noise, and under 1 × the limit cannot be
 * shown to be met at all (DOMAIN.md, analytical methods). Each pair counts once, with the method
 * it comes closest to; the `keep` closest pairs are listed.
 */
export function pairsNearLoq(
  input: LimitsInput,
  methods: readonly LoqMethod[],
  { factor, keep }: { factor: number; keep: number },
): NearLoq {
  const usable = comparable(methods, input);
  if (usable.length === 0) {
    return {
      count: 0,
      pairs: [],
      note:
        methods.length === 0
          ? 'No analytical method is recorded yet.'
          : 'No analytical method has an LOQ that can be compared with the limits.',
    };
  }
  if (input.products.length === 0) {
    return { count: 0, pairs: [], note: 'No limits are computed yet: add products.' };
  }
  const compiled = compileLimits(input);
  let count = 0;
  // The closest pairs so far, sorted by ratio; a pair further than the last kept one is skipped.
  const kept: TNearLoqPair[] = [];
  runMatrix(compiled, (view) => {
    let best: ComparableMethod | undefined;
    let bestRatio = Number.POSITIVE_INFINITY;
    let bestLimit = Number.NaN;
    for (const method of usable) {
      const limit = method.sampleType === 'swab' ? view.swabLimit : view.rinseLimit;
      const ratio = limit / method.loq;
      if (ratio < factor && ratio < bestRatio) {
        best = method;
        bestRatio = ratio;
        bestLimit = limit;
      }
    }
    if (!best) return;
    count++;
    const last = kept[kept.length - 1];
    if (kept.length >= keep && last && last.ratio <= bestRatio) return;
    const pair: TNearLoqPair = {
      previous: input.products[view.previous]?.id ?? '',
      next: input.products[view.next]?.id ?? '',
      method: best.name,
      sampleType: best.sampleType,
      limit: bestLimit,
      loq: best.loq,
      unit: best.sampleType === 'swab' ? 'mg/swab' : 'mg/ml',
      ratio: bestRatio,
    };
    let at = kept.length;
    while (at > 0 && (kept[at - 1]?.ratio ?? 0) > bestRatio) at--;
    kept.splice(at, 0, pair);
    if (kept.length > keep) kept.pop();
  });
  return { count, pairs: kept, note: null };
}
