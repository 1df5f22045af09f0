import type { CompiledLimits } from './compile.ts';
import { limitFlags } from './flags.ts';
import type { PairView } from './matrix.ts';

/**
 * What is wrong with a pair's limit, as short texts for lists and exports. A pair "fails" when
 * it has at least one: no criterion could be computed (so nothing protects the next patient),
 * or the health-based MACO is far looser than the traditional limits (Health Canada GUI-0028
 * advises an alert limit then).
 */
export const PAIR_FLAG_TEXTS = {
  noLimit: 'No limit: no criterion has the data it needs',
  farLooserThanTraditional: 'Health-based MACO over 10 × the traditional limits',
} as const;

/**
 * How urgent each flag is, so a screen marks in red only what needs action (ICH Q9: risk
 * communication by severity; a grid where nearly every cell is red is read as no signal at all).
 * No limit: nothing protects the next patient, act. Far looser: an alert limit is advised.
 */
export const PAIR_FLAG_SEVERITY: Readonly<Record<string, 'action' | 'advisory'>> = {
  [PAIR_FLAG_TEXTS.noLimit]: 'action',
  [PAIR_FLAG_TEXTS.farLooserThanTraditional]: 'advisory',
};

/** The most urgent severity among a pair's flag texts, or null without a flag. */
export function flagSeverity(flags: readonly string[]): 'action' | 'advisory' | null {
  if (flags.length === 0) return null;
  return flags.some((flag) => PAIR_FLAG_SEVERITY[flag] !== 'advisory') ? 'action' : 'advisory';
}

export function pairFlags(view: PairView): string[] {
  const flags: string[] = [];
  if (view.governing === -1) flags.push(PAIR_FLAG_TEXTS.noLimit);
  const checked = limitFlags(
    {
      criteria: view.criteria,
      sal: view.sal,
      swabLimit: view.swabLimit,
      rinseLimit: view.rinseLimit,
    },
    {},
  );
  if (checked.farLooserThanTraditional) flags.push(PAIR_FLAG_TEXTS.farLooserThanTraditional);
  return flags;
}

/** Product names in alphabetical rank, so pairs sort by name without comparing strings. */
export function nameRanks(m: CompiledLimits): Int32Array {
  const products = m.input.products;
  const order = products
    .map((_p, i) => i)
    .sort((a, b) => {
      const x = products[a]?.id ?? '';
      const y = products[b]?.id ?? '';
      return x < y ? -1 : x > y ? 1 : a - b;
    });
  const ranks = new Int32Array(products.length);
  order.forEach((p, rank) => (ranks[p] = rank));
  return ranks;
}
