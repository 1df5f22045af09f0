/**
 * The anchor of the matrix benchmark (issue 16): the engine's algorithm written as one plain loop
 * over the compiled arrays, with no view object, no callback and no helper call. Pairs are found
 * through the equipment → products index; each gets every criterion, the governing one, SAL, swab
 * and rinse limits (with their caps), and is folded into the product-wise and equipment-wise worst
 * cases. It keeps no per-pair record the engine hands to its callers (criteria vector, which rule
 * set each sample limit), only sums, so the engine may cost a little more by design.
 * `bench/limits-matrix.bench.ts` reports the engine's time as a ratio to this loop's, and checks
 * that both give the same summary.
 */
import { ARL, CRITERION_COUNT, PRODUCT, TIE_TOLERANCE } from '#core/limits/compile.ts';
import type { CompiledLimits } from '#core/limits/compile.ts';

export interface PlainSummary {
  pairCount: number;
  lowestMaco: Float64Array;
  lowestSal: Float64Array;
  worstNext: Int32Array;
  equipmentLowestSal: Float64Array;
  equipmentGoverningPrevious: Int32Array;
  equipmentGoverningNext: Int32Array;
  /** Sums over every pair, so that a run cannot skip the values it does not fold. */
  swabSum: number;
  rinseSum: number;
  governingActiveSum: number;
  /** Pairs whose SAL the residue limit capped. */
  cappedCount: number;
}

export function plainMatrix(m: CompiledLimits): PlainSummary {
  const N = m.productCount;
  const E = m.equipmentCount;
  const below = 1 - TIE_TOLERANCE;
  const { trainStart, trainItems, equipmentStart, equipmentProducts, equipmentArea } = m;
  const { factor, factorActive, divisor, minBatchSize, maxDailyDose, batchMassKg } = m;
  const lowestMaco = new Float64Array(N).fill(Infinity);
  const lowestSal = new Float64Array(N).fill(Infinity);
  const worstNext = new Int32Array(N).fill(-1);
  const equipmentLowestSal = new Float64Array(E).fill(Infinity);
  const equipmentGoverningPrevious = new Int32Array(E).fill(-1);
  const equipmentGoverningNext = new Int32Array(E).fill(-1);
  // per next product, while one previous product is walked: its shared items as a chain of links
  const nextBits = new Int32Array(Math.ceil(N / 32));
  const nexts = new Int32Array(N);
  const sharedCount = new Int32Array(N);
  const sharedArea = new Float64Array(N);
  const firstLink = new Int32Array(N);
  const lastLink = new Int32Array(N);
  const linkItem = new Int32Array(trainItems.length);
  const linkNext = new Int32Array(trainItems.length);
  // NaN: the synthetic facility has no MAC formulas, so its `formula` criterion is never set.
  const criteria = new Float64Array(CRITERION_COUNT).fill(NaN);
  let pairCount = 0;
  let swabSum = 0;
  let rinseSum = 0;
  let governingActiveSum = 0;
  let cappedCount = 0;
  for (let p = 0; p < N; p++) {
    let links = 0;
    for (let t = trainStart[p]!; t < trainStart[p + 1]!; t++) {
      const e = trainItems[t]!;
      for (let u = equipmentStart[e]!; u < equipmentStart[e + 1]!; u++) {
        const n = equipmentProducts[u]!;
        if (n === p) continue;
        const bit = 1 << (n & 31);
        if ((nextBits[n >>> 5]! & bit) === 0) {
          nextBits[n >>> 5]! |= bit;
          sharedCount[n] = 0;
          sharedArea[n] = 0;
          firstLink[n] = links;
        } else {
          linkNext[lastLink[n]!] = links;
        }
        lastLink[n] = links;
        linkItem[links++] = e;
        sharedCount[n]!++;
        sharedArea[n]! += equipmentArea[e]!;
      }
    }
    let count = 0;
    for (let word = 0; word < nextBits.length; word++) {
      let bits = nextBits[word]!;
      nextBits[word] = 0;
      while (bits !== 0) {
        const lowest = bits & -bits;
        nexts[count++] = word * 32 + 31 - Math.clz32(lowest);
        bits ^= lowest;
      }
    }
    const base = p * CRITERION_COUNT;
    for (let i = 0; i < count; i++) {
      const n = nexts[i]!;
      const mbs = minBatchSize[n]!;
      const mdd = maxDailyDose[n]!;
      for (let k = 0; k < ARL; k++) criteria[k] = (factor[base + k]! * mbs) / (divisor[k]! * mdd);
      criteria[ARL] = factor[base + ARL]! * batchMassKg[n]!;
      criteria[PRODUCT] = factor[base + PRODUCT]!;
      let governing = -1;
      let maco = NaN;
      for (let k = 0; k < CRITERION_COUNT; k++) {
        const v = criteria[k]!;
        if (v !== v) continue;
        if (governing === -1 || v < maco * below) {
          governing = k;
          maco = v;
          if (m.firstAvailable) break;
        }
      }
      if (governing !== -1 && governing <= ARL)
        governingActiveSum += factorActive[base + governing]!;
      const area = m.previousTrainBasis ? m.trainArea[p]! : sharedArea[n]!;
      let sal = maco / area;
      if (m.residueLimit < sal) {
        sal = m.residueLimit;
        cappedCount++;
      }
      let swab = sal * m.swabAreaSqcm * m.swabRecovery;
      if (m.swabCap < swab) swab = m.swabCap;
      if (m.fixedSwab < swab) swab = m.fixedSwab;
      let rinse = ((m.useSar ? sal * area : maco) * m.rinseRecovery) / m.rinseVolumeMl;
      if (m.rinseCap < rinse) rinse = m.rinseCap;
      if (m.fixedRinse < rinse) rinse = m.fixedRinse;
      swabSum += swab;
      rinseSum += rinse;
      pairCount++;
      const lowest = lowestMaco[p]!;
      if (maco < lowest * below || (lowest !== lowest && maco === maco)) {
        lowestMaco[p] = maco;
        worstNext[p] = n;
      }
      const low = lowestSal[p]!;
      if (sal < low * below || (low !== low && sal === sal)) lowestSal[p] = sal;
      let link = firstLink[n]!;
      for (let j = 0; j < sharedCount[n]!; j++) {
        const e = linkItem[link]!;
        link = linkNext[link]!;
        const eLow = equipmentLowestSal[e]!;
        if (sal < eLow * below || (eLow !== eLow && sal === sal)) {
          equipmentLowestSal[e] = sal;
          equipmentGoverningPrevious[e] = p;
          equipmentGoverningNext[e] = n;
        }
      }
    }
  }
  return {
    pairCount,
    lowestMaco,
    lowestSal,
    worstNext,
    equipmentLowestSal,
    equipmentGoverningPrevious,
    equipmentGoverningNext,
    swabSum,
    rinseSum,
    governingActiveSum,
    cappedCount,
  };
}
