/*
 * Where the PDEs of a limits report come from when the plan's HBEL library gives them (issue 32):
 * the entry, its version, and a site override with its justification and signer (EMA HBEL
 * guideline §7: the PDE used is documented with its derivation and any deviation from it).
 */

type Lineages = readonly { active: string; lineage: string }[];

/** A PDF section (none when no active is linked to the library). */
export function pdeLineageContent(lineages: Lineages): unknown[] {
  if (lineages.length === 0) return [];
  return [
    { text: 'PDEs from the HBEL library', style: 'h2' },
    { ul: lineages.map((l) => `${l.active}: ${l.lineage}`) },
  ];
}

/** The same as an xlsx sheet. */
export function pdeLineageSheet(lineages: Lineages) {
  const rows: string[][] = [
    ['Active', 'PDE lineage'],
    ...lineages.map((l) => [l.active, l.lineage]),
  ];
  return { name: 'PDE lineage', rows };
}
