import { toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { factorInput, input, step } from './derivation.ts';
import type { DerivationInput, DerivationStep } from './derivation.ts';
import {
  CLEANABILITY_GROUPS,
  DOSE_BANDS,
  SOLUBILITY_GROUPS,
  TOXICITY_BANDS,
  scoreByBands,
  toxicityScore,
} from './risk.ts';
import type { Band } from './risk.ts';
import type { RankingActive, RankingConfig, RankingProduct } from './ranking.ts';

/**
 * The factor scores of one product for the worst-case ranking (reference §4.1), each with the
 * input it came from and the band or level that gave its points.
 */

// The actives' scale says "Moderate" where the APIC template says "medium".
const CLEANABILITY = { ...CLEANABILITY_GROUPS, moderate: CLEANABILITY_GROUPS.medium ?? 2 };

function bandText(bands: readonly Band[], score: number, unit: string): string {
  const band = bands.find((b) => b.score === score);
  if (!band) return `score ${score}`;
  const low =
    band.lower === undefined ? '' : `${band.lower} ${band.lowerInclusive === false ? '<' : '≤'} `;
  const high = band.upper === undefined ? '' : ` ${band.upperInclusive ? '≤' : '<'} ${band.upper}`;
  return `${low}x${high} ${unit}`;
}

/** The facility's category for a factor, matched by variable or name. */
function categoryFor(config: RankingConfig, factor: string) {
  return config.categories.find(
    (c) => c.variable.toLowerCase() === factor || c.name.trim().toLowerCase() === factor,
  );
}

export interface Scored {
  inputs: DerivationInput[];
  steps: DerivationStep[];
  scores: Record<string, number>;
  missing: string[];
}

function scoreTerm(
  out: Scored,
  config: RankingConfig,
  factor: 'solubility' | 'cleanability',
  actives: RankingActive[],
  groups: Record<string, number>,
): void {
  const graded = actives.flatMap((a) => {
    const term = a[factor];
    const group = term === undefined ? undefined : groups[term.trim().toLowerCase()];
    return term !== undefined && group !== undefined ? [{ active: a.id, term, group }] : [];
  });
  // The worst active decides: the least soluble, the hardest to clean.
  const worst = graded.reduce<(typeof graded)[number] | undefined>(
    (w, g) => (!w || g.group > w.group ? g : w),
    undefined,
  );
  if (!worst) {
    out.missing.push(factor);
    return;
  }
  const category = categoryFor(config, factor);
  const level = category?.levels.find((l) => l.label.toLowerCase() === worst.term.toLowerCase());
  const score = level ? level.score : worst.group;
  const source = level
    ? `risk category ${category?.name}, level “${level.label}”`
    : `APIC ${factor} group of “${worst.term}”`;
  out.inputs.push(
    factorInput(factor, `${factor}: ${worst.term} (active ${worst.active})`, score, source),
  );
  out.steps.push(step(factor, `“${worst.term}” → ${source}`, score, 'points'));
  out.scores[factor] = score;
}

export function lowestOf(actives: RankingActive[], key: 'therapeuticDose' | 'pde') {
  let best: { active: string; quantity: QuantityOf<'mass'>; mg: number } | undefined;
  for (const a of actives) {
    const q = a[key];
    if (!q) continue;
    const mg = toBase(q, 'mass');
    if (!best || mg < best.mg) best = { active: a.id, quantity: q, mg };
  }
  return best;
}

export function scoreProduct(product: RankingProduct, config: RankingConfig): Scored {
  const out: Scored = { inputs: [], steps: [], scores: {}, missing: [] };
  scoreTerm(out, config, 'solubility', product.actives, SOLUBILITY_GROUPS);
  const dose = lowestOf(product.actives, 'therapeuticDose');
  if (dose) {
    const points = scoreByBands(dose.mg, DOSE_BANDS);
    out.inputs.push(
      input(
        'TD',
        `lowest therapeutic dose (active ${dose.active})`,
        dose.quantity,
        dose.mg,
        'mg',
        `actives[${dose.active}].therapeuticDose`,
      ),
    );
    out.steps.push(step('dose', `band ${bandText(DOSE_BANDS, points, 'mg')}`, points, 'points'));
    out.scores.dose = points;
  } else out.missing.push('dose');
  const pde = lowestOf(product.actives, 'pde');
  if (pde) {
    const ug = pde.mg * 1000;
    const points = scoreByBands(ug, TOXICITY_BANDS);
    out.inputs.push(
      input(
        'HBEL',
        `lowest PDE (active ${pde.active})`,
        pde.quantity,
        ug,
        'ug/day',
        `actives[${pde.active}].pde`,
      ),
    );
    out.steps.push(
      step('toxicity', `band ${bandText(TOXICITY_BANDS, points, 'ug/day')}`, points, 'points'),
    );
    out.scores.toxicity = points;
    const hbelScore = toxicityScore(pde.mg / 1000);
    out.steps.push(step('hbelScore', '−log10(HBEL in g/day)', hbelScore, 'points'));
    out.scores.hbelScore = hbelScore;
  } else out.missing.push('toxicity');
  scoreTerm(out, config, 'cleanability', product.actives, CLEANABILITY);
  return out;
}
