import type { LimitsInput } from '../limits/model.ts';
import type { THbelLineage } from '../schemas/hbel-library.schemas.ts';
import { formatQuantity } from '../units/format-number.ts';

/*
 * Where a linked active's PDE comes from, in a reviewer's words: the library entry and the version
 * it was taken from, the library's PDE, and a site override with its justification and who signed
 * it (EMA HBEL guideline §7: the PDE used is documented with its derivation and any deviation from
 * it; 21 CFR 11.50: a signature shows the signer's name, when, and its meaning). The active's
 * page, the limits' derivations and the limits reports say it in these words.
 */

type Lineage = Pick<
  THbelLineage,
  'number' | 'substance' | 'versionNumber' | 'libraryPde' | 'override' | 'justification'
> &
  Partial<Pick<THbelLineage, 'endedOverride'>> & {
    overrideSignature: Pick<
      NonNullable<THbelLineage['overrideSignature']>,
      'signedBy' | 'signedAt'
    > | null;
  };

const quantity = (q: { value: number; unit: string } | null) =>
  q ? formatQuantity(q.value, q.unit) : 'none';

/** One line: 'HBEL library HBEL-0001 (Gamma), version 1: PDE 50 mg; site override 20 mg, …'. */
export function lineageText(l: Lineage): string {
  const entry = `HBEL library ${l.number} (${l.substance}), version ${l.versionNumber}: PDE ${quantity(l.libraryPde)}`;
  if (!l.override) return l.endedOverride ? `${entry}; ${endedText(l.endedOverride)}` : entry;
  const signed = l.overrideSignature
    ? `, signed by ${l.overrideSignature.signedBy} on ${l.overrideSignature.signedAt.slice(0, 10)}`
    : ', not signed';
  return `${entry}; site override ${quantity(l.override)} (justification: ${l.justification ?? ''}${signed})`;
}

/**
 * An override signed against an earlier version, ended by the move to this one: a site's
 * deviation from the library is justified against the PDE it deviates from (EMA HBEL guideline
 * §7), so a new PDE needs a new signed override.
 */
function endedText(ended: NonNullable<THbelLineage['endedOverride']>): string {
  const signed = ended.signedBy ? `, signed by ${ended.signedBy}` : '';
  return `the site override ${quantity(ended.pde)} signed against version ${ended.versionNumber} (justification: ${ended.justification}${signed}) ended with this version`;
}

/** Each active of these limits inputs whose PDE the library gives, once, with its lineage. */
export function inputLineages(
  inputs: readonly Pick<LimitsInput, 'products'>[],
): { active: string; lineage: string }[] {
  const found = new Map<string, string>();
  for (const input of inputs)
    for (const product of input.products)
      for (const active of product.actives)
        if (active.pdeLineage) found.set(active.id, active.pdeLineage);
  return [...found].map(([active, lineage]) => ({ active, lineage }));
}
