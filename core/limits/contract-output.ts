import { CRITERION_KEYS, FORMULA, PRODUCT, compileLimits } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { matrixPairs, newSummary, runMatrix } from './matrix.ts';
import type { MatrixSummary, PairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';

/** The output document of contracts/limits.md. */
export interface ContractQuantity<U extends string> {
  value: number;
  unit: U;
}

export interface ContractPair {
  previous: string;
  next: string;
  sharedEquipment: string[];
  area: ContractQuantity<'sqcm'>;
  criteria: Record<string, ContractQuantity<'mg'> | null>;
  governing: string | null;
  governingActive: string | null;
  maco: ContractQuantity<'mg'> | null;
  sal: ContractQuantity<'mg/sqcm'> | null;
  salCapped: boolean;
  swabLimit?: ContractQuantity<'mg/swab'> | null;
  rinseLimit?: ContractQuantity<'mg/ml'> | null;
}

export interface ContractProduct {
  id: string;
  lowestMaco: ContractQuantity<'mg'> | null;
  lowestSal: ContractQuantity<'mg/sqcm'> | null;
  worstNext: string | null;
}

export interface ContractEquipment {
  id: string;
  lowestSal: ContractQuantity<'mg/sqcm'> | null;
  governingPair: [string, string] | null;
}

export interface ContractDocument {
  pairs?: ContractPair[];
  products: ContractProduct[];
  equipment: ContractEquipment[];
}

function q<U extends string>(value: number, unit: U): ContractQuantity<U> | null {
  return Number.isFinite(value) ? { value, unit } : null;
}

/** The contract's JSON for the pair the matrix loop is on (allocates; only when pairs print). */
export function contractPair(m: CompiledLimits, view: PairView): ContractPair {
  const { products, equipment, sampling } = m.input;
  const previous = products[view.previous];
  const next = products[view.next];
  if (!previous || !next) throw new Error('pair outside the product list');
  const sharedEquipment: string[] = [];
  for (let i = 0; i < view.sharedCount; i++) {
    sharedEquipment.push(equipment[view.shared[i] ?? 0]?.id ?? '');
  }
  const criteria: Record<string, ContractQuantity<'mg'> | null> = {};
  // The contract's four criteria; the product limit where the policy uses it, and the facility's
  // MAC formulas where it has any (never in the contract's own input).
  CRITERION_KEYS.forEach((key, k) => {
    if (k === PRODUCT && !m.useProductLimit) return;
    if (k === FORMULA && !m.macFormulas) return;
    criteria[key] = q(view.criteria[k] ?? Number.NaN, 'mg');
  });
  const pair: ContractPair = {
    previous: previous.id,
    next: next.id,
    sharedEquipment,
    area: { value: view.area, unit: 'sqcm' },
    criteria,
    governing: view.governing === -1 ? null : (CRITERION_KEYS[view.governing] ?? null),
    governingActive:
      view.governingActive === -1 ? null : (previous.actives[view.governingActive]?.id ?? null),
    maco: q(view.maco, 'mg'),
    sal: q(view.sal, 'mg/sqcm'),
    salCapped: view.salCapped,
  };
  if (sampling.swabArea) pair.swabLimit = q(view.swabLimit, 'mg/swab');
  if (sampling.rinseVolume) pair.rinseLimit = q(view.rinseLimit, 'mg/ml');
  return pair;
}

export function contractProducts(m: CompiledLimits, s: MatrixSummary): ContractProduct[] {
  const out: ContractProduct[] = [];
  m.input.products.forEach((product, p) => {
    if (!s.isPrevious[p]) return;
    const worst = s.worstNext[p] ?? -1;
    out.push({
      id: product.id,
      lowestMaco: q(s.lowestMaco[p] ?? Number.NaN, 'mg'),
      lowestSal: q(s.lowestSal[p] ?? Number.NaN, 'mg/sqcm'),
      worstNext: worst === -1 ? null : (m.input.products[worst]?.id ?? null),
    });
  });
  return out;
}

export function contractEquipment(m: CompiledLimits, s: MatrixSummary): ContractEquipment[] {
  const { products } = m.input;
  const out: ContractEquipment[] = [];
  m.input.equipment.forEach((item, e) => {
    if (!s.inSomePair[e]) return;
    const previous = products[s.equipmentGoverningPrevious[e] ?? -1];
    const next = products[s.equipmentGoverningNext[e] ?? -1];
    out.push({
      id: item.id,
      lowestSal: q(s.equipmentLowestSal[e] ?? Number.NaN, 'mg/sqcm'),
      governingPair: previous && next ? [previous.id, next.id] : null,
    });
  });
  return out;
}

export interface RenderOptions {
  /** `--summary`: products and equipment only, no pairs. */
  summary?: boolean;
}

/**
 * Writes the contract document as compact JSON, streaming the pairs as the matrix produces them
 * so that a large matrix is never held in memory. `write` receives chunks of about 64 kB.
 */
export function renderContractDocument(
  input: LimitsInput,
  options: RenderOptions,
  write: (chunk: string) => void,
): MatrixSummary {
  const m = compileLimits(input);
  let buffer = '';
  const emit = (text: string) => {
    buffer += text;
    if (buffer.length > 65_536) {
      write(buffer);
      buffer = '';
    }
  };
  let first = true;
  let summary: MatrixSummary;
  if (options.summary) {
    summary = runMatrix(m);
    emit('{');
  } else {
    emit('{"pairs":[');
    summary = runMatrix(m, (view) => {
      emit((first ? '' : ',') + JSON.stringify(contractPair(m, view)));
      first = false;
    });
    emit('],');
  }
  emit(`"products":${JSON.stringify(contractProducts(m, summary))},`);
  emit(`"equipment":${JSON.stringify(contractEquipment(m, summary))}}\n`);
  write(buffer);
  return summary;
}

/**
 * The contract document as a generator of JSON chunks (about 64 kB each), for a writer that
 * must wait for its reader between chunks: `for (const chunk of contractChunks(…)) { if
 * (!res.write(chunk)) await once(res, 'drain'); }`. Same text as `renderContractDocument`.
 */
export function* contractChunks(
  input: LimitsInput,
  options: RenderOptions = {},
): Generator<string> {
  const m = compileLimits(input);
  const summary = newSummary(m);
  let buffer = options.summary ? '{' : '{"pairs":[';
  if (options.summary) {
    for (const _view of matrixPairs(m, summary)) continue;
  } else {
    let first = true;
    for (const view of matrixPairs(m, summary)) {
      buffer += (first ? '' : ',') + JSON.stringify(contractPair(m, view));
      first = false;
      if (buffer.length > 65_536) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += '],';
  }
  buffer += `"products":${JSON.stringify(contractProducts(m, summary))},`;
  buffer += `"equipment":${JSON.stringify(contractEquipment(m, summary))}}\n`;
  yield buffer;
}

/** The contract document as an object (tests, the application's what-if). */
export function contractDocument(
  input: LimitsInput,
  options: RenderOptions = {},
): ContractDocument {
  const m = compileLimits(input);
  const pairs: ContractPair[] = [];
  const summary = runMatrix(m, options.summary ? undefined : (v) => pairs.push(contractPair(m, v)));
  const doc: ContractDocument = {
    products: contractProducts(m, summary),
    equipment: contractEquipment(m, summary),
  };
  return options.summary ? doc : { pairs, ...doc };
}
