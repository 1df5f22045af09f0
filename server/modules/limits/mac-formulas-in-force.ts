import { macFormulasDef } from '#core/entities/defs/index.ts';
import type { MacFormulaSpec } from '#core/limits/mac-formula.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities } from '#server/entities/entity-store.ts';
import { versionsInForce } from '#server/records/controlled.ts';

/** A formula's version being approved: in force from the approval whose snapshot is stored. */
export interface ApprovedFormula {
  documentId: number;
  versionNumber: number;
  content: Record<string, unknown>;
}

/**
 * The facility's MAC formulas that take part in its limits (now, or at `asOf`): the approved
 * version of each formula not archived, by name. A formula never approved, or approved after
 * `asOf`, is no criterion: an unapproved change is not in force (21 CFR 211.100(a), EU GMP
 * Annex 11 §10), and a limit of an earlier day is reproduced without a formula added since.
 */
export async function macFormulasInForce(
  q: Queryable,
  facilityId: number,
  asOf?: string,
  approving?: ApprovedFormula,
): Promise<MacFormulaSpec[]> {
  const records = await allEntities(q, macFormulasDef, facilityId, { asOf });
  if (records.length === 0) return [];
  const inForce = await versionsInForce(
    q,
    { facilityId, documentType: macFormulasDef.controlled.documentType },
    records.map((r) => r.id),
    { asOf, strict: true },
  );
  if (approving && records.some((r) => r.id === approving.documentId)) {
    inForce.set(approving.documentId, {
      content: approving.content,
      versionNumber: approving.versionNumber,
      status: 'Approved',
      signatureState: null,
    });
  }
  const formulas: MacFormulaSpec[] = [];
  for (const [, version] of inForce) {
    const { name, expression } = version.content;
    if (typeof name !== 'string' || typeof expression !== 'string') continue;
    formulas.push({ id: name, expression, versionNumber: version.versionNumber });
  }
  return formulas.sort((a, b) => a.id.localeCompare(b.id));
}
