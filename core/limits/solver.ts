import { CRITERION_COUNT, PRODUCT, compileLimits } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { evaluatePairAt, newPairView } from './matrix.ts';
import type { PairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';

/**
 * "What would make this limit pass?" Every limit of a pair is monotone in the next product's
 * batch size (all criteria scale with MBS), in the area (SAL = MACO / A) and in the recovery
 * (L4 = L3 × … × r), so each question has a closed-form answer.
 */

export type LimitName = 'maco' | 'sal' | 'swabLimit' | 'rinseLimit';

/** The limit must be at least `atLeast`, in the limit's output unit (mg, mg/sqcm, mg/swab, mg/ml). */
export interface Requirement {
  limit: LimitName;
  atLeast: number;
}

export interface Solution {
  /** passes: already passes (value = the bound); solved: passes at value; impossible; unaffected. */
  status: 'passes' | 'solved' | 'impossible' | 'unaffected';
  value: number;
  unit: string;
  /** The limit now, in its output unit. */
  current: number;
  note: string;
}

const LIMIT_UNIT: Record<LimitName, string> = {
  maco: 'mg',
  sal: 'mg/sqcm',
  swabLimit: 'mg/swab',
  rinseLimit: 'mg/ml',
};

/** Whether previous → next is a pair of the matrix: both products known and sharing equipment. */
export function isPair(m: CompiledLimits, previousId: string, nextId: string): boolean {
  const p = m.input.products.findIndex((x) => x.id === previousId);
  const n = m.input.products.findIndex((x) => x.id === nextId);
  return p >= 0 && n >= 0 && evaluatePairAt(m, p, n, newPairView(m.equipmentCount));
}

function pairView(source: LimitsInput | CompiledLimits, previousId: string, nextId: string) {
  const m = 'factor' in source ? source : compileLimits(source);
  const p = m.input.products.findIndex((x) => x.id === previousId);
  const n = m.input.products.findIndex((x) => x.id === nextId);
  const view = newPairView(m.equipmentCount);
  if (p < 0 || n < 0 || !evaluatePairAt(m, p, n, view)) {
    throw new Error(
      `${previousId} → ${nextId} is not a pair (unknown product or no shared equipment)`,
    );
  }
  return { m, view };
}

function current(view: PairView, limit: LimitName): number {
  return view[limit];
}

/**
 * The policy's per-sample cap or fixed limit on a swab or rinse limit, when it is below what the
 * requirement needs: no batch size, area or recovery can then lift the limit past it.
 */
function blockedByCeiling(m: CompiledLimits, req: Requirement): boolean {
  const ceilings =
    req.limit === 'swabLimit'
      ? [m.swabCap, m.fixedSwab]
      : req.limit === 'rinseLimit'
        ? [m.rinseCap, m.fixedRinse]
        : [];
  return ceilings.some((c) => c < req.atLeast);
}

function blocked(base: { unit: string; current: number }): Solution {
  return {
    ...base,
    status: 'impossible',
    value: Number.NaN,
    note: 'the policy’s fixed or per-sample limit is below what is needed',
  };
}

/** The surface limit the requirement needs, or the MACO for a MACO requirement. */
function requiredSal(m: CompiledLimits, view: PairView, req: Requirement): number {
  switch (req.limit) {
    case 'maco':
      return Number.NaN;
    case 'sal':
      return req.atLeast;
    case 'swabLimit':
      return req.atLeast / (m.swabAreaSqcm * m.swabRecovery);
    case 'rinseLimit':
      return (req.atLeast * m.rinseVolumeMl) / (view.area * m.rinseRecovery);
  }
}

/** The smallest minimum batch size of the next product at which the limit passes. */
export function solveMinBatchSize(
  source: LimitsInput | CompiledLimits,
  previousId: string,
  nextId: string,
  req: Requirement,
): Solution {
  const { m, view } = pairView(source, previousId, nextId);
  const next = m.input.products[view.next];
  const unit = next?.minBatchSize.unit ?? '';
  const mbs = next?.minBatchSize.value ?? Number.NaN;
  const now = current(view, req.limit);
  const base = { unit, current: now };
  if (blockedByCeiling(m, req)) return blocked(base);
  if (view.governing === -1) {
    return { ...base, status: 'impossible', value: Number.NaN, note: 'every criterion is null' };
  }
  let macoNeeded = req.atLeast;
  if (req.limit !== 'maco') {
    const salNeeded = requiredSal(m, view, req);
    if (m.residueLimit < salNeeded) {
      return {
        ...base,
        status: 'impossible',
        value: Number.NaN,
        note: 'the residue limit caps the surface limit below what is needed',
      };
    }
    macoNeeded = salNeeded * view.area;
  }
  // Criteria health, dose, LD50 and ARL scale with MBS; a recorded product limit does not.
  let scale = 0;
  const considered = m.firstAvailable ? [view.governing] : [...Array(CRITERION_COUNT).keys()];
  for (const k of considered) {
    const c = view.criteria[k] ?? Number.NaN;
    if (Number.isNaN(c)) continue;
    if (k === PRODUCT) {
      if (c < macoNeeded) {
        return {
          ...base,
          status: 'impossible',
          value: Number.NaN,
          note: 'the product limit governs',
        };
      }
      continue;
    }
    scale = Math.max(scale, macoNeeded / c);
  }
  const value = mbs * scale;
  return {
    ...base,
    status: now >= req.atLeast ? 'passes' : 'solved',
    value,
    note: `minimum batch size of ${nextId} for ${req.limit} ≥ ${req.atLeast} ${LIMIT_UNIT[req.limit]}`,
  };
}

/** The largest area (sqcm) the residue may be spread over and still pass. */
export function solveMaxArea(
  source: LimitsInput | CompiledLimits,
  previousId: string,
  nextId: string,
  req: Requirement,
): Solution {
  const { m, view } = pairView(source, previousId, nextId);
  const now = current(view, req.limit);
  const base = { unit: 'sqcm', current: now };
  if (blockedByCeiling(m, req)) return blocked(base);
  if (req.limit === 'maco' || req.limit === 'rinseLimit') {
    // MACO does not depend on area; rinse = min(MACO, RL × A) × r / V never falls as A grows.
    return {
      ...base,
      status: 'unaffected',
      value: Number.POSITIVE_INFINITY,
      note: `a larger area does not lower the ${req.limit}`,
    };
  }
  const salNeeded = requiredSal(m, view, req);
  if (Number.isNaN(view.maco) || m.residueLimit < salNeeded) {
    return { ...base, status: 'impossible', value: Number.NaN, note: 'no area is small enough' };
  }
  const value = view.maco / salNeeded;
  return {
    ...base,
    status: now >= req.atLeast ? 'passes' : 'solved',
    value,
    note: `largest area for ${req.limit} ≥ ${req.atLeast} ${LIMIT_UNIT[req.limit]}`,
  };
}

/** The lowest recovery (percent) at which the swab or rinse limit still reaches the requirement. */
export function solveMinRecovery(
  source: LimitsInput | CompiledLimits,
  previousId: string,
  nextId: string,
  req: Requirement,
): Solution {
  const { m, view } = pairView(source, previousId, nextId);
  const now = current(view, req.limit);
  const base = { unit: '%', current: now };
  if (blockedByCeiling(m, req)) return blocked(base);
  if (req.limit === 'maco' || req.limit === 'sal') {
    return {
      ...base,
      status: 'unaffected',
      value: 0,
      note: `recovery does not change the ${req.limit}`,
    };
  }
  const atFullRecovery = now / (req.limit === 'swabLimit' ? m.swabRecovery : m.rinseRecovery);
  const fraction = req.atLeast / atFullRecovery;
  if (!(fraction <= 1)) {
    return {
      ...base,
      status: 'impossible',
      value: Number.NaN,
      note: 'even 100 % recovery does not reach the requirement',
    };
  }
  return {
    ...base,
    status: now >= req.atLeast ? 'passes' : 'solved',
    value: fraction * 100,
    note: `lowest recovery for ${req.limit} ≥ ${req.atLeast} ${LIMIT_UNIT[req.limit]}`,
  };
}

/** Every answer to "what would make this limit reach `req.atLeast`" for one pair. */
export interface GoalSeek {
  requirement: Requirement & { unit: string };
  current: number;
  batchSize: Solution;
  area: Solution;
  recovery: Solution;
}

/**
 * The smallest next batch size, the largest shared area and the lowest recovery at which the
 * pair's limit reaches the requirement, each answered alone with the other inputs as they are.
 */
export function goalSeek(
  source: LimitsInput | CompiledLimits,
  previousId: string,
  nextId: string,
  req: Requirement,
): GoalSeek {
  const m = 'factor' in source ? source : compileLimits(source);
  const batchSize = solveMinBatchSize(m, previousId, nextId, req);
  return {
    requirement: { ...req, unit: LIMIT_UNIT[req.limit] },
    current: batchSize.current,
    batchSize,
    area: solveMaxArea(m, previousId, nextId, req),
    recovery: solveMinRecovery(m, previousId, nextId, req),
  };
}
