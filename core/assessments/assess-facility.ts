import { formatQuantity } from '../units/format-number.ts';
import { compileLimits, isLower } from '../limits/compile.ts';
import { CRITERION_NAMES } from '../labels/enum-labels.ts';
import { explainPair } from '../limits/explain.ts';
import { runMatrix } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import type {
  TAssessmentResult,
  TCoverageCell,
  TCoverageState,
} from '../schemas/cleaning-assessments.schemas.ts';

/*
 * A facility cleaning assessment (core/assessments/README.md "Cleaning assessments"): the
 * worst case of each equipment train, each product group's representative and the coverage of
 * every product × train by studies, all from the limits engine's own pairs. Pure: the server
 * reads the data and stores the result.
 */

export interface NamedId {
  id: number;
  name: string;
}

/** A production: its products (ids) and its equipment (ids). */
export interface AssessTrain extends NamedId {
  productIds: readonly number[];
  equipmentIds: readonly number[];
}

export interface AssessGroup extends NamedId {
  memberIds: readonly number[];
}

/** A study of a product on a train: a historical study record now, a study later (issue 12). */
export interface AssessEvidence {
  kind: 'historicalStudy' | 'study';
  id: number;
  name: string;
  productId: number;
  trainId: number;
  outcome: 'Validated' | 'Failed';
  /** The surface limit the study was judged against, mg/sqcm. */
  limitAtStudy: number | null;
  /** YYYY-MM-DD. */
  date: string | null;
}

/** What the diff needs of the previous assessment. */
export interface PriorAssessment {
  id: number;
  result: Pick<TAssessmentResult, 'coverage' | 'worstCases'>;
}

export interface AssessFacilityArgs {
  /** The engine's input in force (product and equipment ids are their names). */
  input: LimitsInput;
  /** Products the engine left out, with why (computable-input). */
  uncomputable?: readonly { name: string; reason: string }[];
  products: readonly NamedId[];
  equipment: readonly NamedId[];
  productGroups: readonly AssessGroup[];
  equipmentGroups: readonly AssessGroup[];
  trains: readonly AssessTrain[];
  evidence: readonly AssessEvidence[];
  prior: PriorAssessment | null;
  /** Risk score per product name, when the facility rates them. */
  riskScores?: Readonly<Record<string, number>>;
  /**
   * The worst case of each train (by its id) as the worst-case ranking's criteria select it,
   * with the override in force: the one computation the ranking, its reports and the
   * worst-products answers show too (server limits/worst-products.service.ts). A train missing
   * here has no worst case.
   */
  worst: Readonly<Record<number, TrainWorstPick>>;
}

/** One train's worst case as selected for it, and the signed override in force, if any. */
export interface TrainWorstPick {
  /** The computed worst product's name, null when none can be computed. */
  product: string | null;
  /** The selection criterion that set it apart (a ranking attribute; null when it stands alone). */
  attribute: string | null;
  /** Why, in words, when another criterion than the lowest MACO decided. */
  text: string;
  /** The product the train is validated on: the override's while it applies. */
  worstCase?: string | null;
  /** The override in force in words, with its justification and signer; null without one. */
  override?: string | null;
}

/** What the server adds: the snapshot, the input's hash and the change assessments between. */
export type AssessmentOutcome = Omit<TAssessmentResult, 'limitsSnapshotId' | 'inputHash'>;

/** The lowest limits of one product as previous on one train, and the pair that set the MACO. */
interface CellLimits {
  sal: number;
  maco: number;
  next: number;
}

const show = (value: number, unit: string) => formatQuantity(value, unit);
const finiteOrNull = (value: number) => (Number.isFinite(value) ? value : null);
const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const cellKey = (productId: number, trainId: number) => `${productId}:${trainId}`;
const isGap = (state: TCoverageState) => state === 'notCovered' || state === 'tightened';

/**
 * Runs the matrix once and keeps, for each product as previous and each train it is made on,
 * the lowest surface limit and the lowest MACO over the pairs whose shared equipment includes
 * an item of that train: that is the product's limit on the train.
 */
function limitsPerCell(
  args: AssessFacilityArgs,
  productIndex: ReadonlyMap<number, number>,
  equipmentIndex: ReadonlyMap<number, number>,
) {
  const m = compileLimits(args.input);
  const trainsOfProduct: { train: number; members: Uint8Array }[][] = Array.from(
    { length: m.productCount },
    () => [],
  );
  args.trains.forEach((train, t) => {
    const members = new Uint8Array(Math.max(m.equipmentCount, 1));
    for (const id of train.equipmentIds) {
      const e = equipmentIndex.get(id);
      if (e !== undefined) members[e] = 1;
    }
    for (const id of train.productIds) {
      const p = productIndex.get(id);
      if (p !== undefined) trainsOfProduct[p]!.push({ train: t, members });
    }
  });
  // cells[p][k]: product p on its k-th train
  const cells: CellLimits[][] = trainsOfProduct.map((trains) =>
    trains.map(() => ({ sal: Number.NaN, maco: Number.NaN, next: -1 })),
  );
  const summary = runMatrix(m, (view) => {
    const trains = trainsOfProduct[view.previous]!;
    for (let k = 0; k < trains.length; k++) {
      const { members } = trains[k]!;
      let onTrain = false;
      for (let i = 0; i < view.sharedCount && !onTrain; i++) {
        onTrain = members[view.shared[i]!] === 1;
      }
      if (!onTrain) continue;
      const cell = cells[view.previous]![k]!;
      if (Number.isNaN(cell.sal) || isLower(view.sal, cell.sal)) cell.sal = view.sal;
      if (Number.isNaN(cell.maco) || isLower(view.maco, cell.maco)) {
        cell.maco = view.maco;
        cell.next = view.next;
      }
    }
  });
  const onTrain = new Map<string, CellLimits>();
  trainsOfProduct.forEach((trains, p) =>
    trains.forEach(({ train }, k) => onTrain.set(`${p}:${train}`, cells[p]![k]!)),
  );
  return { m, summary, onTrain };
}

/** Why a product is its train's worst case: the governing criterion and its numbers. */
function worstCaseReason(
  m: ReturnType<typeof compileLimits>,
  previous: string,
  next: string,
  cell: CellLimits,
): string {
  const pair = explainPair(m, previous, next);
  const lead = `Lowest MACO into any next product on this train: ${show(cell.maco, 'mg')} (${previous} → ${next}`;
  if (!pair?.governing) return `${lead}); lowest surface limit ${show(cell.sal, 'mg/sqcm')}`;
  const derivation = pair.criteria[pair.governing];
  // The number the criterion rests on: the governing active's HBEL, dose or LD50, or the ARL.
  const basis =
    derivation.inputs.find(
      (i) =>
        i.record?.kind === 'active' &&
        (!pair.governingActive || i.symbol.endsWith(`(${pair.governingActive})`)),
    ) ?? derivation.inputs.find((i) => i.symbol === 'ARL');
  const named = basis ? `, ${basis.name} ${show(basis.given.value, basis.given.unit)}` : '';
  return `${lead}, ${CRITERION_NAMES[pair.governing]}${named}); lowest surface limit ${show(cell.sal, 'mg/sqcm')}`;
}

/** What the limits give the assessment: worst cases, groups, and each product's limit per train. */
export interface LimitsAssessment {
  groups: AssessmentOutcome['groups'];
  worstCases: AssessmentOutcome['worstCases'];
  /** The surface limit of a product on the train at that index of `args.trains`; NaN = none. */
  limitOn: (productId: number, trainIndex: number) => number;
  lowestMember: (ids: readonly number[], limit: (id: number) => number) => number | undefined;
}

/**
 * The three steps of an assessment, separate so that a job can report each: the limits (one run
 * of the matrix), the coverage, and the comparison with the prior assessment.
 */
export function assessLimits(args: AssessFacilityArgs): LimitsAssessment {
  const productName = new Map(args.products.map((p) => [p.id, p.name]));
  const equipmentName = new Map(args.equipment.map((e) => [e.id, e.name]));
  const inputProduct = new Map(args.input.products.map((p, i) => [p.id, i]));
  const inputEquipment = new Map(args.input.equipment.map((e, i) => [e.id, i]));
  const productIndex = new Map<number, number>();
  for (const p of args.products) {
    const index = inputProduct.get(p.name);
    if (index !== undefined) productIndex.set(p.id, index);
  }
  const equipmentIndex = new Map<number, number>();
  for (const e of args.equipment) {
    const index = inputEquipment.get(e.name);
    if (index !== undefined) equipmentIndex.set(e.id, index);
  }
  const { m, summary, onTrain } = limitsPerCell(args, productIndex, equipmentIndex);
  const limitOn = (productId: number, t: number): CellLimits | undefined => {
    const p = productIndex.get(productId);
    return p === undefined ? undefined : onTrain.get(`${p}:${t}`);
  };

  // Worst case per train: the product the ranking's criteria select (args.worst), with its
  // lowest MACO into any next product on this train and the derivation of it.
  const productId = new Map(args.products.map((p) => [p.name, p.id]));
  const worstCases = args.trains.map((train, t) => {
    const pick = args.worst[train.id];
    const chosen = pick?.product == null ? undefined : productId.get(pick.product);
    const cell = chosen === undefined ? undefined : limitOn(chosen, t);
    const lineage = { worstCase: pick?.worstCase, override: pick?.override };
    if (!pick || chosen === undefined || !cell || Number.isNaN(cell.maco)) {
      return {
        train: train.name,
        trainId: train.id,
        product: null,
        reason:
          'No worst case: no product of this train shares equipment with another product whose limits can be computed',
        lowestMaco: null,
        lowestSal: null,
        ...lineage,
      };
    }
    const previous = productName.get(chosen) ?? String(chosen);
    const next = m.input.products[cell.next]?.id ?? '';
    let lowestSal = Number.NaN;
    for (const productId of train.productIds) {
      const sal = limitOn(productId, t)?.sal ?? Number.NaN;
      if (Number.isNaN(lowestSal) || isLower(sal, lowestSal)) lowestSal = sal;
    }
    const derivation = worstCaseReason(m, previous, next, cell);
    // Chosen by another criterion (a risk score, say): that first, then its limit on the train.
    const decidedElsewhere = pick.attribute !== null && pick.attribute !== 'lowestMaco';
    return {
      train: train.name,
      trainId: train.id,
      product: previous,
      reason: decidedElsewhere ? `${pick.text}. ${derivation}` : derivation,
      lowestMaco: finiteOrNull(cell.maco),
      lowestSal: finiteOrNull(lowestSal),
      ...lineage,
    };
  });

  // Groups: a product group's representative is its member with the lowest surface limit.
  const lowestSalOf = (productId: number) => {
    const p = productIndex.get(productId);
    const sal = p === undefined ? Number.NaN : (summary.lowestSal[p] ?? Number.NaN);
    return Number.isFinite(sal) ? sal : Number.NaN;
  };
  const lowestMember = (ids: readonly number[], limit: (id: number) => number) => {
    let best: number | undefined;
    let bestLimit = Number.NaN;
    for (const id of [...ids].sort((a, b) => byName(nameOf(a), nameOf(b)))) {
      const value = limit(id);
      if (Number.isNaN(value)) continue;
      if (best === undefined || isLower(value, bestLimit)) {
        best = id;
        bestLimit = value;
      }
    }
    return best;
  };
  const nameOf = (id: number) => ({ name: productName.get(id) ?? '' });
  const groups = [
    ...args.productGroups.map((g) => {
      const representative = lowestMember(g.memberIds, lowestSalOf);
      return {
        kind: 'product' as const,
        id: g.id,
        name: g.name,
        members: g.memberIds.map((id) => productName.get(id) ?? String(id)).sort(),
        representative:
          representative === undefined ? null : (productName.get(representative) ?? null),
      };
    }),
    ...args.equipmentGroups.map((g) => ({
      kind: 'equipment' as const,
      id: g.id,
      name: g.name,
      members: g.memberIds.map((id) => equipmentName.get(id) ?? String(id)).sort(),
      representative: null,
    })),
  ];

  return {
    groups,
    worstCases,
    limitOn: (productId, t) => limitOn(productId, t)?.sal ?? Number.NaN,
    lowestMember,
  };
}

export function checkCoverage(
  args: AssessFacilityArgs,
  limits: LimitsAssessment,
): Pick<AssessmentOutcome, 'coverage' | 'counts'> {
  const coverage = coverageOf(args, limits.limitOn, limits.lowestMember);
  const counts = {
    cells: coverage.length,
    study: 0,
    representative: 0,
    tightened: 0,
    notCovered: 0,
    highestRiskScore: highestRisk(args.riskScores, coverage),
  };
  for (const cell of coverage) counts[cell.state]++;
  return { coverage, counts };
}

export function assessFacility(args: AssessFacilityArgs): AssessmentOutcome {
  const limits = assessLimits(args);
  const { coverage, counts } = checkCoverage(args, limits);
  return {
    groups: limits.groups,
    worstCases: limits.worstCases,
    coverage,
    counts,
    diff: diffWithPrior(args.prior, coverage, limits.worstCases),
    uncomputable: [...(args.uncomputable ?? [])],
  };
}

/**
 * The coverage matrix: each product × train it is made on. `study` when a Validated study of
 * it on the train exists and the limit now is not lower than the newest one's; `tightened` when
 * it is; `representative` when the product group's representative on the train (its member with
 * the lowest limit there) has a Validated study on the train; else `notCovered`.
 */
function coverageOf(
  args: AssessFacilityArgs,
  limitOn: (productId: number, t: number) => number,
  lowestMember: (ids: readonly number[], limit: (id: number) => number) => number | undefined,
): TCoverageCell[] {
  const productName = new Map(args.products.map((p) => [p.id, p.name]));
  const validated = new Map<string, AssessEvidence[]>();
  for (const e of args.evidence) {
    if (e.outcome !== 'Validated') continue;
    const key = cellKey(e.productId, e.trainId);
    validated.set(key, [...(validated.get(key) ?? []), e]);
  }
  for (const list of validated.values())
    list.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
  const groupsOf = new Map<number, AssessGroup[]>();
  for (const g of args.productGroups)
    for (const id of g.memberIds) groupsOf.set(id, [...(groupsOf.get(id) ?? []), g]);

  const cells: TCoverageCell[] = [];
  args.trains.forEach((train, t) => {
    const onTrain = new Set(train.productIds);
    for (const productId of new Set(train.productIds)) {
      const limit = limitOn(productId, t);
      const currentLimit = Number.isFinite(limit) ? limit : null;
      const own = validated.get(cellKey(productId, train.id)) ?? [];
      let state: TCoverageState = 'notCovered';
      let representative: string | null = null;
      let evidence = own;
      const newest = own[0];
      if (newest) {
        const tightened =
          currentLimit !== null &&
          newest.limitAtStudy !== null &&
          isLower(currentLimit, newest.limitAtStudy);
        state = tightened ? 'tightened' : 'study';
      } else {
        for (const group of groupsOf.get(productId) ?? []) {
          const members = group.memberIds.filter((id) => onTrain.has(id));
          const rep = lowestMember(members, (id) => limitOn(id, t));
          const repEvidence =
            rep === undefined ? [] : (validated.get(cellKey(rep, train.id)) ?? []);
          if (rep === undefined || rep === productId || repEvidence.length === 0) continue;
          state = 'representative';
          representative = productName.get(rep) ?? String(rep);
          evidence = repEvidence;
          break;
        }
      }
      cells.push({
        product: productName.get(productId) ?? String(productId),
        productId,
        train: train.name,
        trainId: train.id,
        state,
        representative,
        currentLimit,
        evidence: evidence.map((e) => ({
          kind: e.kind,
          id: e.id,
          name: e.name,
          limitAtStudy: e.limitAtStudy,
          date: e.date,
        })),
      });
    }
  });
  return cells.sort(
    (a, b) =>
      a.train.localeCompare(b.train) || a.trainId - b.trainId || a.product.localeCompare(b.product),
  );
}

function highestRisk(
  scores: Readonly<Record<string, number>> | undefined,
  coverage: readonly TCoverageCell[],
): number | null {
  if (!scores) return null;
  let highest: number | null = null;
  for (const cell of coverage) {
    const score = Object.hasOwn(scores, cell.product) ? scores[cell.product] : undefined;
    if (score !== undefined && Number.isFinite(score) && (highest === null || score > highest))
      highest = score;
  }
  return highest;
}

/**
 * Against the prior assessment: gaps (not covered or tightened) that are new, gaps that are
 * gone (covered now, or the product no longer made on the train), and trains whose worst case
 * changed. Cells are matched by ids, so a renamed product is the same product.
 */
export function diffWithPrior(
  prior: PriorAssessment | null,
  coverage: readonly TCoverageCell[],
  worstCases: readonly { train: string; trainId: number; product: string | null }[],
): AssessmentOutcome['diff'] {
  if (!prior) {
    return {
      priorId: null,
      newGaps: [],
      closedGaps: [],
      worstCaseChanges: [],
      changeAssessments: [],
    };
  }
  const gapKeys = (cells: readonly TCoverageCell[]) =>
    new Map(cells.filter((c) => isGap(c.state)).map((c) => [cellKey(c.productId, c.trainId), c]));
  const before = gapKeys(prior.result.coverage);
  const after = gapKeys(coverage);
  const pick = (c: TCoverageCell) => ({ product: c.product, train: c.train });
  const newGaps = [...after].filter(([key]) => !before.has(key)).map(([, c]) => pick(c));
  const closedGaps = [...before].filter(([key]) => !after.has(key)).map(([, c]) => pick(c));
  const priorWorst = new Map(prior.result.worstCases.map((w) => [w.trainId, w]));
  const nowWorst = new Map(worstCases.map((w) => [w.trainId, w]));
  const worstCaseChanges: AssessmentOutcome['diff']['worstCaseChanges'] = [];
  for (const trainId of new Set([...priorWorst.keys(), ...nowWorst.keys()])) {
    const was = priorWorst.get(trainId);
    const is = nowWorst.get(trainId);
    if ((was?.product ?? null) === (is?.product ?? null)) continue;
    worstCaseChanges.push({
      train: is?.train ?? was?.train ?? String(trainId),
      before: was?.product ?? null,
      after: is?.product ?? null,
    });
  }
  return { priorId: prior.id, newGaps, closedGaps, worstCaseChanges, changeAssessments: [] };
}
