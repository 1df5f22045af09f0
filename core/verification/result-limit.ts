import type { TLimitBasis } from '../labels/enum-labels.ts';
import { compileLimits, isLower } from '../limits/compile.ts';
import type { CompiledLimits } from '../limits/compile.ts';
import {
  CALCULATED,
  FIXED,
  itemRinseLimit,
  rinseLimitAt,
  runMatrix,
  swabLimitAt,
} from '../limits/matrix.ts';
import type { PairView, SampleValue } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import type { TResultUnit, TSampleType } from '../schemas/verification.schemas.ts';
import { unitLabel } from '../units/format-number.ts';
import { shown, toResultUnit } from './judge-result.ts';

/**
 * The limit a sample result is judged against, from a study's pinned limits snapshot (its engine
 * input). Computed by the engine's own functions on the snapshot with every recovery set to
 * 100 %: the result is divided by its recovery instead (core/verification/README.md), so the
 * limit must carry none. The policy's per-sample caps and fixed limits stay ceilings as in the
 * engine. `resultLimits` answers many locations with one pass of the matrix.
 */

export interface ResultLimitQuery {
  /** The engine's ids (the snapshot names equipment and products as it stored them). */
  equipmentId: string;
  productIds: readonly string[];
  basis: TLimitBasis;
  sampleType: TSampleType;
  swabAreaSqcm: number | null;
  rinseVolumeMl: number | null;
  unit: TResultUnit;
}

export interface ResultLimit {
  limit: number | null;
  derivation: string[];
  /** The product pair that sets the limit ('A → B'), when there is one. */
  pair?: string;
}

/** The lowest SAL (for the swab) and item rinse limit over some pairs, with their pairs. */
interface Governing {
  pairs: number;
  sal: number;
  salPair: string;
  salCapped: boolean;
  /** Residue carried into the rinse of the item (mg), which orders the rinse limits. */
  carried: number;
  rinsePair: string;
  rinseSal: number;
  /** The item's share of the governing pair's MACO, mg. */
  rinseShare: number;
}

const none = (): Governing => ({
  pairs: 0,
  sal: Number.NaN,
  salPair: '',
  salCapped: false,
  carried: Number.NaN,
  rinsePair: '',
  rinseSal: Number.NaN,
  rinseShare: Number.NaN,
});

function fold(into: Governing, from: Governing): void {
  into.pairs += from.pairs;
  if (isLower(from.sal, into.sal)) {
    Object.assign(into, { sal: from.sal, salPair: from.salPair, salCapped: from.salCapped });
  }
  if (isLower(from.carried, into.carried)) {
    const { carried, rinsePair, rinseSal, rinseShare } = from;
    Object.assign(into, { carried, rinsePair, rinseSal, rinseShare });
  }
}

/** Every item's governing pairs over all pairs, and per previous product. */
function governingPairs(m: CompiledLimits) {
  const all = m.input.equipment.map(none);
  const byPrevious = m.input.equipment.map(() => new Map<number, Governing>());
  const { products } = m.input;
  // The item's rinse limit at 1 ml without ceilings is the residue carried into its rinse.
  const carriedOf: CompiledLimits = { ...m, rinseVolumeMl: 1, rinseCap: NaN, fixedRinse: NaN };
  const out: SampleValue = { value: Number.NaN, rule: CALCULATED };
  runMatrix(m, (view: PairView) => {
    const pair = `${products[view.previous]?.id} → ${products[view.next]?.id}`;
    for (let i = 0; i < view.sharedCount; i++) {
      const e = view.shared[i] ?? 0;
      const area = m.equipmentArea[e] ?? Number.NaN;
      const one: Governing = {
        pairs: 1,
        sal: view.sal,
        salPair: pair,
        salCapped: view.salCapped,
        carried: itemRinseLimit(carriedOf, view, e, out).value,
        rinsePair: pair,
        rinseSal: view.sal,
        // as itemRinseLimit shares it: in proportion to area (reference §2.2, case D20)
        rinseShare: (view.maco * area) / view.area,
      };
      fold(all[e]!, one);
      const own = byPrevious[e]!;
      const held = own.get(view.previous);
      if (held) fold(held, one);
      else own.set(view.previous, one);
    }
  });
  return { all, byPrevious };
}

function ceilingLine(rule: SampleValue['rule'], value: number, unit: string): string | null {
  if (rule === CALCULATED) return null;
  const what = rule === FIXED ? "the policy's fixed sample limit" : "the policy's per-sample cap";
  return `Lower than the calculated limit, ${what} applies: ${shown(value)} ${unitLabel(unit)}`;
}

function swabLimit(m: CompiledLimits, g: Governing, area: number | null, lines: string[]) {
  if (area === null || !(area > 0)) {
    lines.push('No swab area for this location: no swab limit');
    return null;
  }
  const out = swabLimitAt({ ...m, swabAreaSqcm: area }, g.sal, { value: NaN, rule: CALCULATED });
  lines.push(
    `Swab limit: ${shown(g.sal)} mg/cm² × ${shown(area)} cm² = ${shown(g.sal * area)} mg/swab (no recovery: the result is divided by it instead)`,
  );
  const cap = ceilingLine(out.rule, out.value, 'mg/swab');
  if (cap) lines.push(cap);
  return out.value;
}

function rinseLimit(
  m: CompiledLimits,
  e: number,
  g: Governing,
  volume: number | null,
  lines: string[],
) {
  if (volume === null || !(volume > 0)) {
    lines.push('No rinse volume for this location: no rinse limit');
    return null;
  }
  const area = m.equipmentArea[e] ?? Number.NaN;
  const at = { ...m, rinseVolumeMl: volume };
  const out = rinseLimitAt(at, g.rinseSal, g.rinseShare, area, { value: NaN, rule: CALCULATED });
  const V = `${shown(volume)} ml`;
  if (m.useSar) {
    lines.push(
      `Rinse limit (pair ${g.rinsePair}): ${shown(g.rinseSal)} mg/cm² × ${shown(area)} cm² ÷ ${V} = ${shown((g.rinseSal * area) / volume)} mg/ml (no recovery)`,
    );
  } else {
    lines.push(
      `Share of the MACO of pair ${g.rinsePair} on ${m.input.equipment[e]?.id} (in proportion to its area ${shown(area)} cm²): ${shown(g.rinseShare)} mg`,
      `Rinse limit: ${shown(g.rinseShare)} mg ÷ ${V} = ${shown(g.rinseShare / volume)} mg/ml (no recovery)`,
    );
  }
  const cap = ceilingLine(out.rule, out.value, 'mg/ml');
  if (cap) lines.push(cap);
  return out.value;
}

function answer(
  m: CompiledLimits,
  governing: ReturnType<typeof governingPairs>,
  q: ResultLimitQuery,
): ResultLimit {
  const e = m.input.equipment.findIndex((item) => item.id === q.equipmentId);
  if (e === -1) {
    return { limit: null, derivation: [`${q.equipmentId} is not in the limits snapshot`] };
  }
  let g = governing.all[e]!;
  if (g.pairs === 0) {
    const why = `${q.equipmentId} is in no product pair of the limits snapshot: no limit applies`;
    return { limit: null, derivation: [why] };
  }
  let basis = `equipment-wise: the lowest surface limit of ${q.equipmentId} over its ${g.pairs} pairs`;
  if (q.basis === 'productWise' && q.productIds.length > 0) {
    const own = none();
    m.input.products.forEach((p, i) => {
      const held = q.productIds.includes(p.id) ? governing.byPrevious[e]!.get(i) : undefined;
      if (held) fold(own, held);
    });
    const names = q.productIds.join(', ');
    if (own.pairs > 0) {
      g = own;
      basis = `product-wise: the lowest surface limit of ${q.equipmentId} over the ${own.pairs} pairs with ${names} as previous product`;
    } else {
      // Conservative: the equipment-wise limit is never above a product-wise one.
      basis = `${names} leave no residue on ${q.equipmentId} for another product: ${basis}`;
    }
  }
  const lines = [
    `Limit basis: ${basis}`,
    `Lowest surface limit (SAL): ${shown(g.sal)} mg/cm², pair ${g.salPair}${g.salCapped ? " (the policy's residue limit)" : ''}`,
  ];
  const mg =
    q.sampleType === 'swab'
      ? swabLimit(m, g, q.swabAreaSqcm, lines)
      : rinseLimit(m, e, g, q.rinseVolumeMl, lines);
  if (mg === null) return { limit: null, derivation: lines };
  if (!Number.isFinite(mg)) {
    lines.push('The snapshot gives no finite limit for this item');
    return { limit: null, derivation: lines };
  }
  const from = q.sampleType === 'swab' ? 'mg/swab' : 'mg/ml';
  const limit = toResultUnit(mg, from, q.unit);
  if (q.unit !== from) lines.push(`In ${unitLabel(q.unit)}: ${shown(limit)} ${unitLabel(q.unit)}`);
  return { limit, derivation: lines, pair: q.sampleType === 'swab' ? g.salPair : g.rinsePair };
}

/**
 * The snapshot compiled and its governing pairs, once per input object: a run's results and its
 * plan's rows are judged one by one against the same study's snapshot, and each passed over the
 * whole matrix (two thirds of the server's time while a 1,000-product facility's results were
 * entered). A snapshot's input is never changed once read (it is what the signers approved), so
 * what was worked out from it holds.
 */
const compiledSnapshots = new WeakMap<
  LimitsInput,
  { m: CompiledLimits; governing: ReturnType<typeof governingPairs> }
>();

function compiledSnapshot(snapshotInput: LimitsInput) {
  let compiled = compiledSnapshots.get(snapshotInput);
  if (compiled) return compiled;
  const {
    swabRecoveryPercentage: _s,
    rinseRecoveryPercentage: _r,
    ...sampling
  } = snapshotInput.sampling;
  // Recovery 100 % everywhere; each query brings its own swab area and rinse volume.
  const m = compileLimits({
    ...snapshotInput,
    policy: { ...snapshotInput.policy, useGlobalRecoveryPercentage: false },
    sampling,
  });
  compiled = { m, governing: governingPairs(m) };
  compiledSnapshots.set(snapshotInput, compiled);
  return compiled;
}

/** The limits of many locations against one snapshot: one compile, one pass of the matrix. */
export function resultLimits(
  snapshotInput: LimitsInput,
  queries: readonly ResultLimitQuery[],
): ResultLimit[] {
  const { m, governing } = compiledSnapshot(snapshotInput);
  return queries.map((q) => answer(m, governing, q));
}

export function resultLimit(snapshotInput: LimitsInput, query: ResultLimitQuery): ResultLimit {
  return resultLimits(snapshotInput, [query])[0]!;
}
