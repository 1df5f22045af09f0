import { activesDef, productionsDef, selectionCriteriaDef } from '#core/entities/defs/index.ts';
import { rpnCategoriesDef, rpnFormulasDef } from '#core/entities/defs/risk.def.ts';
import { AppError } from '#core/errors/errors.ts';
import { CRITERION_KEYS, compileLimits, type CompiledLimits } from '#core/limits/compile.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { explainPair } from '#core/limits/explain.ts';
import { governingPairs, limitsReport, pairKey } from '#core/limits/limit-reports.ts';
import type { LowestLimits } from '#core/limits/limit-reports.ts';
import { rankWorstCases } from '#core/limits/ranking.ts';
import type { RankingConfig, RankingProduct } from '#core/limits/ranking.ts';
import { SAMPLE_RULE_NAMES, runMatrix } from '#core/limits/matrix.ts';
import type { MatrixSummary, SampleRule, SampleRuleName } from '#core/limits/matrix.ts';
import type { MatrixRun } from '#core/limits/pair-walk.ts';
import { productWiseLimits } from '#core/limits/worst-case.ts';
import { inputLineages } from '#core/hbel/lineage.ts';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, historyNote } from '#server/entities/entity-store.ts';
import { computable, refuseLeftOut } from './computable-input.ts';
import { macMatrixState } from './mac-matrix-cache.ts';
import { targetOverrides } from './worst-product-overrides.ts';

/**
 * The limits reports (spec §3 report kinds) from the facility's live master data, through the
 * limits engine, on the one facility input every view uses (`facilityLimitsInput`).
 */

type Json = Record<string, unknown>;
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Json;
const orNull = (v: number) => (Number.isFinite(v) ? v : null);

function lowestJson(l: LowestLimits) {
  const one = (x: LowestLimits['maco']) => ({ value: orNull(x.value), pair: x.pair });
  return { maco: one(l.maco), sal: one(l.sal), swab: one(l.swab), rinse: one(l.rinse) };
}

/** The derivation of every pair that set a lowest limit, by `previous → next`. */
function explanations(m: CompiledLimits, limits: LowestLimits[]): Record<string, Json> {
  return Object.fromEntries(
    governingPairs(limits).map((pair) => [pairKey(pair), plain(explainPair(m, pair[0], pair[1]))]),
  );
}

/** A report of the data as it was at `asOf` (ISO date-time), or now. */
export interface AsOf {
  asOf?: string | undefined;
}

/**
 * The compiled limits and what was left out of them, and why (listed by every report). `input`:
 * the facility's whole input as of now, already read by the caller in the same transaction (a
 * change evaluation), computed on instead of read a second time.
 */
async function compiled(
  q: Queryable,
  facilityId: number,
  productionId?: number,
  at: AsOf = {},
  input?: LimitsInput,
) {
  if (input) {
    const given = computable(input);
    return {
      m: compileLimits(given.input),
      uncomputable: given.uncomputable,
      historyStartsAt: undefined,
    };
  }
  // The matrix views' cached state (mac-matrix-cache.ts) when `q` is the app's database.
  const state = await macMatrixState(q, facilityId, { productionId, asOf: at.asOf });
  const { uncomputable, historyStartsAt } = state;
  return { m: state.compiled(), uncomputable, historyStartsAt };
}

/** What any production left out, once each, in the order first met. */
function leftOutOnce(lists: readonly TUncomputable[][]): TUncomputable[] {
  const seen = new Map<string, TUncomputable>();
  for (const u of lists.flat())
    if (!seen.has(`${u.kind}:${u.id}`)) seen.set(`${u.kind}:${u.id}`, u);
  return [...seen.values()];
}

export async function equipmentLimits(q: Queryable, facilityId: number, at: AsOf = {}) {
  const state = await compiled(q, facilityId, undefined, at);
  const { m, uncomputable } = state;
  const report = limitsReport(m);
  return {
    equipment: report.equipment.map((e) => ({
      id: e.id,
      pairCount: e.pairCount,
      ...lowestJson(e),
    })),
    explanations: explanations(m, report.equipment),
    sampling: plain(m.input.sampling),
    pdeLineage: inputLineages([m.input]),
    uncomputable,
    ...historyNote([state]),
  };
}

export async function productionLimits(q: Queryable, facilityId: number, at: AsOf = {}) {
  const productions = await allEntities(q, productionsDef, facilityId, at);
  const rows = [];
  const leftOut: TUncomputable[][] = [];
  const inputs = [];
  const states = [];
  for (const production of productions) {
    const state = await compiled(q, facilityId, production.id, at);
    const { m, uncomputable } = state;
    states.push(state);
    leftOut.push(uncomputable);
    inputs.push(m.input);
    const { overall } = limitsReport(m);
    rows.push({
      id: production.id,
      name: production.name as string,
      productCount: m.productCount,
      equipmentCount: m.equipmentCount,
      pairCount: overall.pairCount,
      ...lowestJson(overall),
      explanations: explanations(m, [overall]),
    });
  }
  return {
    productions: rows,
    pdeLineage: inputLineages(inputs),
    uncomputable: leftOutOnce(leftOut),
    ...historyNote([...productions, ...states]),
  };
}

/** Every pair of one production's own matrix, with its governing criterion and limits. */
export async function productionPairs(
  q: Queryable,
  facilityId: number,
  productionId: number,
  at: AsOf = {},
) {
  const state = await compiled(q, facilityId, productionId, at);
  const { m, uncomputable } = state;
  const { products } = m.input;
  const pairs: {
    previous: string;
    next: string;
    governing: string | null;
    maco: number | null;
    sal: number | null;
    swab: number | null;
    rinse: number | null;
    swabBasis: SampleRuleName | null;
    rinseBasis: SampleRuleName | null;
  }[] = [];
  // Which rule set each sample limit: the fixed limit, a ceiling, shows where it governs.
  const basis = (value: number, rule: SampleRule) =>
    Number.isFinite(value) ? SAMPLE_RULE_NAMES[rule] : null;
  runMatrix(m, (v) => {
    pairs.push({
      previous: products[v.previous]?.id ?? '',
      next: products[v.next]?.id ?? '',
      governing: CRITERION_KEYS[v.governing] ?? null,
      maco: orNull(v.maco),
      sal: orNull(v.sal),
      swab: orNull(v.swabLimit),
      rinse: orNull(v.rinseLimit),
      swabBasis: basis(v.swabLimit, v.swabRule),
      rinseBasis: basis(v.rinseLimit, v.rinseRule),
    });
  });
  return { pairs, uncomputable, ...historyNote([state]) };
}

/** One pair of a production's matrix explained on that production's own data. */
export async function explainProductionPair(
  q: Queryable,
  facilityId: number,
  productionId: number,
  previous: string,
  next: string,
  at: AsOf = {},
) {
  const state = await compiled(q, facilityId, productionId, at);
  const { m, uncomputable } = state;
  refuseLeftOut(uncomputable, previous, next);
  const explanation = explainPair(m, previous, next);
  if (!explanation) {
    throw new AppError(
      'NotFoundError',
      'These products are not both in the production, or share none of its equipment',
    );
  }
  return { explanation: plain(explanation), ...historyNote([state]) };
}

/** The ranking's configuration, and the records it was read from. */
async function rankingConfig(q: Queryable, facilityId: number, at: AsOf) {
  const [categories, formulas, criteria] = await Promise.all([
    allEntities(q, rpnCategoriesDef, facilityId, at),
    allEntities(q, rpnFormulasDef, facilityId, at),
    allEntities(q, selectionCriteriaDef, facilityId, at),
  ]);
  const ordered = [...criteria].sort(
    (a, b) => ((a.priority as number) ?? 1000) - ((b.priority as number) ?? 1000),
  );
  const rpn = ordered.find((c) => c.basis === 'Highest RPN' && c.rpnFormulaId);
  const formula = formulas.find((f) => f.id === rpn?.rpnFormulaId);
  const config: RankingConfig = {
    categories: categories.map((c) => ({
      name: c.name as string,
      variable: c.variable as string,
      levels: (c.levels as { label: string; score: number }[] | null) ?? [],
    })),
    criteria: ordered.map((c) => ({ name: c.name as string, basis: c.basis as string })),
  };
  if (formula) {
    config.formula = { name: formula.name as string, expression: formula.expression as string };
  }
  return { config, read: [...categories, ...formulas, ...criteria] };
}

/** What a ranking reads besides the matrix: the actives and the ranking's configuration. */
export async function rankingReads(q: Queryable, facilityId: number, at: AsOf = {}) {
  const [actives, { config, read }] = await Promise.all([
    allEntities(q, activesDef, facilityId, at),
    rankingConfig(q, facilityId, at),
  ]);
  return { actives, config, read };
}

type RankingReads = Awaited<ReturnType<typeof rankingReads>>;

/** The ranking on a compiled input and its matrix's summary. */
function rankOn(m: CompiledLimits, summary: MatrixSummary, { actives, config }: RankingReads) {
  const activeByName = new Map(actives.map((a) => [a.name as string, a]));
  const lowest = new Map(productWiseLimits(m, summary).map((p) => [p.id, p.lowestMaco]));
  const products: RankingProduct[] = m.input.products.map((product, p) => ({
    id: product.id,
    lowestMaco: lowest.get(product.id) ?? Number.NaN,
    minBatchSize: m.minBatchSize[p] ?? Number.NaN,
    maxDailyDose: m.maxDailyDose[p] ?? Number.NaN,
    actives: product.actives.map((a) => {
      const record = activeByName.get(a.id);
      return {
        id: a.id,
        ...(a.pde ? { pde: a.pde } : {}),
        ...(a.therapeuticDose ? { therapeuticDose: a.therapeuticDose } : {}),
        ...(record?.solubility ? { solubility: record.solubility as string } : {}),
        ...(record?.cleanability ? { cleanability: record.cleanability as string } : {}),
      };
    }),
  }));
  return rankWorstCases(products, m.input.trains, config);
}

/**
 * The facility's products ranked by its risk scoring and selection criteria, with the records read
 * for it: the ranking report and the worst-case product of each train and item read this one.
 */
export async function rankFacility(
  q: Queryable,
  facilityId: number,
  at: AsOf = {},
  input?: LimitsInput,
) {
  const [state, reads] = await Promise.all([
    compiled(q, facilityId, undefined, at, input),
    rankingReads(q, facilityId, at),
  ]);
  const { m, uncomputable } = state;
  const ranking = rankOn(m, runMatrix(m), reads);
  return {
    ranking,
    config: reads.config,
    uncomputable,
    read: [state, ...reads.actives, ...reads.read],
  };
}

/**
 * The ranking of `input` (the facility's as of now, read by the caller) on `reads` made before.
 * `run`: a run of the matrix of `input` the caller has made (a change evaluation's), taken when
 * nothing is left out of the input, so that its matrix is the one the ranking would run.
 */
export function rankInput(input: LimitsInput, reads: RankingReads, run?: MatrixRun) {
  const given = computable(input);
  const m = run?.compiled.input === given.input ? run.compiled : compileLimits(given.input);
  const summary = m === run?.compiled ? run.summary : runMatrix(m);
  return { ranking: rankOn(m, summary, reads), uncomputable: given.uncomputable };
}

export async function worstCaseRanking(q: Queryable, facilityId: number, at: AsOf = {}) {
  const [{ ranking, config, uncomputable, read }, overrides] = await Promise.all([
    rankFacility(q, facilityId, at),
    targetOverrides(q, facilityId, at.asOf),
  ]);
  return {
    products: ranking.products.map((r) => ({
      ...r,
      lowestMaco: orNull(r.lowestMaco),
      derivation: plain(r.derivation),
    })),
    perEquipment: ranking.perEquipment,
    criteria: ranking.criteria,
    formula: config.formula ?? null,
    overrides,
    uncomputable,
    ...historyNote(read),
  };
}
