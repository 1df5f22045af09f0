import { compileLimits, isLower } from '../limits/compile.ts';
import type { CompiledLimits } from '../limits/compile.ts';
import { CALCULATED, FIXED, itemRinseLimit, runMatrix, swabLimitAt } from '../limits/matrix.ts';
import type { PairView, SampleValue } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import type { TResultUnit, TSampleType } from '../schemas/verification.schemas.ts';
import { shown, toResultUnit } from './judge-result.ts';

/**
 * The limit a sample result is judged against, from a study's pinned limits snapshot (its engine
 * input). Computed by the engine's own functions on the snapshot with every recovery set to
 * 100 %: the result is divided by its recovery instead (core/verification/README.md), so the
 * limit must carry none. The policy's per-sample caps and fixed limits stay ceilings as in the
 * engine.
 */

export interface ResultLimitQuery {
  /** The engine's ids (the snapshot names equipment and products as it stored them). */
  equipmentId: string;
  productIds: readonly string[];
  basis: 'equipmentWise' | 'productWise';
  sampleType: TSampleType;
  swabAreaSqcm: number | null;
  rinseVolumeMl: number | null;
  unit: TResultUnit;
}

export interface ResultLimit {
  limit: number | null;
  derivation: string[];
}

/** The snapshot with the sampling of this location and recovery 100 % everywhere. */
function withoutRecovery(input: LimitsInput, q: ResultLimitQuery): LimitsInput {
  const { swabRecoveryPercentage: _s, rinseRecoveryPercentage: _r, ...sampling } = input.sampling;
  return {
    ...input,
    policy: { ...input.policy, useGlobalRecoveryPercentage: false },
    sampling: {
      ...sampling,
      swabArea: q.swabAreaSqcm === null ? undefined : { value: q.swabAreaSqcm, unit: 'sqcm' },
      rinseVolume: q.rinseVolumeMl === null ? undefined : { value: q.rinseVolumeMl, unit: 'ml' },
    },
  };
}

/** The lowest SAL (for the swab) and item rinse limit over the pairs that count, with their pairs. */
interface Governing {
  pairs: number;
  sal: number;
  salPair: string;
  salCapped: boolean;
  rinse: number;
  rinseRule: SampleValue['rule'];
  rinsePair: string;
  /** The governing rinse pair's SAL, MACO and the area it is spread over, for the derivation. */
  rinseSal: number;
  rinseMaco: number;
  rinseArea: number;
}

function lowestOver(m: CompiledLimits, e: number, previous: Set<number> | null): Governing {
  const g: Governing = {
    pairs: 0,
    sal: Number.NaN,
    salPair: '',
    salCapped: false,
    rinse: Number.NaN,
    rinseRule: CALCULATED,
    rinsePair: '',
    rinseSal: Number.NaN,
    rinseMaco: Number.NaN,
    rinseArea: Number.NaN,
  };
  const { products } = m.input;
  const name = (v: PairView) => `${products[v.previous]?.id} → ${products[v.next]?.id}`;
  const rinse: SampleValue = { value: Number.NaN, rule: CALCULATED };
  runMatrix(m, (view) => {
    if (previous && !previous.has(view.previous)) return;
    if (!view.shared.subarray(0, view.sharedCount).includes(e)) return;
    g.pairs++;
    if (isLower(view.sal, g.sal)) {
      Object.assign(g, { sal: view.sal, salPair: name(view), salCapped: view.salCapped });
    }
    // The item's rinse limit as the equipment limits report has it (its own area, its share).
    itemRinseLimit(m, view, e, rinse);
    if (isLower(rinse.value, g.rinse)) {
      Object.assign(g, { rinse: rinse.value, rinseRule: rinse.rule, rinsePair: name(view) });
      Object.assign(g, { rinseSal: view.sal, rinseMaco: view.maco, rinseArea: view.area });
    }
  });
  return g;
}

function ceilingLine(rule: SampleValue['rule'], value: number, unit: string): string | null {
  if (rule === CALCULATED) return null;
  const what = rule === FIXED ? "the policy's fixed sample limit" : "the policy's per-sample cap";
  return `Lower than the calculated limit, ${what} applies: ${shown(value)} ${unit}`;
}

function swabLimit(m: CompiledLimits, g: Governing, lines: string[]): number | null {
  if (!(m.swabAreaSqcm > 0)) {
    lines.push('No swab area for this location: no swab limit');
    return null;
  }
  const out = swabLimitAt(m, g.sal, { value: Number.NaN, rule: CALCULATED });
  const calculated = g.sal * m.swabAreaSqcm;
  lines.push(
    `Swab limit: ${shown(g.sal)} mg/sqcm × ${shown(m.swabAreaSqcm)} sqcm = ${shown(calculated)} mg/swab (no recovery: the result is divided by it instead)`,
  );
  const cap = ceilingLine(out.rule, out.value, 'mg/swab');
  if (cap) lines.push(cap);
  return out.value;
}

function rinseLimit(m: CompiledLimits, e: number, g: Governing, lines: string[]): number | null {
  if (!(m.rinseVolumeMl > 0)) {
    lines.push('No rinse volume for this location: no rinse limit');
    return null;
  }
  const area = m.equipmentArea[e] ?? Number.NaN;
  const V = `${shown(m.rinseVolumeMl)} ml`;
  if (m.useSar) {
    const carried = g.rinseSal * area;
    lines.push(
      `Rinse limit (pair ${g.rinsePair}): ${shown(g.rinseSal)} mg/sqcm × ${shown(area)} sqcm ÷ ${V} = ${shown(carried / m.rinseVolumeMl)} mg/ml (no recovery)`,
    );
  } else {
    const share = (g.rinseMaco * area) / g.rinseArea;
    lines.push(
      `Item's share of the MACO of pair ${g.rinsePair}: ${shown(g.rinseMaco)} mg × ${shown(area)} sqcm ÷ ${shown(g.rinseArea)} sqcm = ${shown(share)} mg`,
      `Rinse limit: ${shown(share)} mg ÷ ${V} = ${shown(share / m.rinseVolumeMl)} mg/ml (no recovery)`,
    );
  }
  const cap = ceilingLine(g.rinseRule, g.rinse, 'mg/ml');
  if (cap) lines.push(cap);
  return g.rinse;
}

export function resultLimit(snapshotInput: LimitsInput, q: ResultLimitQuery): ResultLimit {
  const m = compileLimits(withoutRecovery(snapshotInput, q));
  const lines: string[] = [];
  const e = m.input.equipment.findIndex((item) => item.id === q.equipmentId);
  if (e === -1) {
    return { limit: null, derivation: [`${q.equipmentId} is not in the limits snapshot`] };
  }
  let g = lowestOver(m, e, null);
  if (g.pairs === 0) {
    const why = `${q.equipmentId} is in no product pair of the limits snapshot: no limit applies`;
    return { limit: null, derivation: [why] };
  }
  let basis = `equipment-wise: the lowest surface limit of ${q.equipmentId} over its ${g.pairs} pairs`;
  if (q.basis === 'productWise' && q.productIds.length > 0) {
    const wanted = new Set(q.productIds);
    const previous = new Set(m.input.products.flatMap((p, i) => (wanted.has(p.id) ? [i] : [])));
    const own = lowestOver(m, e, previous);
    if (own.pairs > 0) {
      g = own;
      basis = `product-wise: the lowest surface limit of ${q.equipmentId} over the ${own.pairs} pairs with ${q.productIds.join(', ')} as previous product`;
    } else {
      // Conservative: the equipment-wise limit is never above a product-wise one.
      basis = `${q.productIds.join(', ')} leave no residue on ${q.equipmentId} for another product: ${basis}`;
    }
  }
  lines.push(`Limit basis: ${basis}`);
  lines.push(
    `Lowest surface limit (SAL): ${shown(g.sal)} mg/sqcm, pair ${g.salPair}${g.salCapped ? " (the policy's residue limit)" : ''}`,
  );
  const mg = q.sampleType === 'swab' ? swabLimit(m, g, lines) : rinseLimit(m, e, g, lines);
  if (mg === null || !Number.isFinite(mg)) {
    if (mg !== null) lines.push('The snapshot gives no finite limit for this item');
    return { limit: null, derivation: lines };
  }
  const from = q.sampleType === 'swab' ? 'mg/swab' : 'mg/ml';
  const limit = toResultUnit(mg, from, q.unit);
  if (q.unit !== from) lines.push(`In ${q.unit}: ${shown(limit)} ${q.unit}`);
  return { limit, derivation: lines };
}
