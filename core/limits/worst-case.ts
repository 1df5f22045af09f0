import type { CompiledLimits } from './compile.ts';
import { HEALTH, CRITERION_COUNT } from './compile.ts';
import { explainPair } from './explain.ts';
import type { PairExplanation } from './explain.ts';
import type { MatrixSummary } from './matrix.ts';

/**
 * Worst cases over the matrix: product-wise (one limit per previous product), equipment-wise
 * (one per item) and the APIC facility worst case. Values in mg and mg/sqcm; NaN = none.
 */

export interface ProductWiseLimit {
  id: string;
  lowestMaco: number;
  worstNext: string | null;
  lowestSal: number;
  /** The lowest MACO over the previous product's own whole train (conservative, reference §2.2). */
  ownTrainSal: number;
}

export interface EquipmentWiseLimit {
  id: string;
  lowestSal: number;
  governingPair: [string, string] | null;
}

const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : Number.NaN);

export function productWiseLimits(m: CompiledLimits, s: MatrixSummary): ProductWiseLimit[] {
  const { products } = m.input;
  const out: ProductWiseLimit[] = [];
  products.forEach((product, p) => {
    if (!s.isPrevious[p]) return;
    const lowestMaco = finite(s.lowestMaco[p]);
    out.push({
      id: product.id,
      lowestMaco,
      worstNext: products[s.worstNext[p] ?? -1]?.id ?? null,
      lowestSal: finite(s.lowestSal[p]),
      ownTrainSal: lowestMaco / (m.trainArea[p] ?? Number.NaN),
    });
  });
  return out;
}

export function equipmentWiseLimits(m: CompiledLimits, s: MatrixSummary): EquipmentWiseLimit[] {
  const { products, equipment } = m.input;
  const out: EquipmentWiseLimit[] = [];
  equipment.forEach((item, e) => {
    if (!s.inSomePair[e]) return;
    const prev = products[s.equipmentGoverningPrevious[e] ?? -1];
    const next = products[s.equipmentGoverningNext[e] ?? -1];
    out.push({
      id: item.id,
      lowestSal: finite(s.equipmentLowestSal[e]),
      governingPair: prev && next ? [prev.id, next.id] : null,
    });
  });
  return out;
}

export interface FacilityWorstCase {
  /** The previous product with the lowest HBEL among its actives (highest hazard). */
  mostHazardousPrevious: string | null;
  hbel: number;
  /** The next product with the fewest daily doses per batch (smallest MBS/MDD). */
  smallestBatchToDose: string | null;
  batchToDoseRatio: number;
  /** HBEL × MBS/MDD of that combination, mg. */
  macoHealth: number;
}

/**
 * APIC grouping (reference §2.2, case M01): the lowest-HBEL product as previous with the next
 * product of the smallest MBS/MDD bounds every health-based MACO of the facility.
 */
export function facilityWorstCase(m: CompiledLimits): FacilityWorstCase {
  const { products } = m.input;
  let prev = -1;
  let hbel = Number.POSITIVE_INFINITY;
  let next = -1;
  let ratio = Number.POSITIVE_INFINITY;
  for (let p = 0; p < m.productCount; p++) {
    const h = m.factor[p * CRITERION_COUNT + HEALTH] ?? Number.NaN;
    if (h < hbel) {
      hbel = h;
      prev = p;
    }
    const r = m.batchToDoseRatio[p] ?? Number.NaN;
    if (r < ratio) {
      ratio = r;
      next = p;
    }
  }
  return {
    mostHazardousPrevious: products[prev]?.id ?? null,
    hbel: prev === -1 ? Number.NaN : hbel,
    smallestBatchToDose: products[next]?.id ?? null,
    batchToDoseRatio: next === -1 ? Number.NaN : ratio,
    macoHealth: prev === -1 || next === -1 ? Number.NaN : hbel * ratio,
  };
}

/**
 * The derivation of a product-wise or equipment-wise limit is that of the pair that set it: the
 * previous product with its worst next, or the item's governing pair.
 */
export function explainWorstCase(
  m: CompiledLimits,
  limit: ProductWiseLimit | EquipmentWiseLimit,
): PairExplanation | undefined {
  const [previous, next] =
    'worstNext' in limit ? [limit.id, limit.worstNext] : (limit.governingPair ?? [null, null]);
  if (previous === null || next === null) return undefined;
  return explainPair(m, previous, next);
}
