import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';

/**
 * The sheets of the master-data workbook (spec §3 "Master-data sections"), in the order an
 * import applies them, so that every reference points at a row already read.
 */
export interface EntitySection {
  sheet: string;
  def: EntityDef;
  /** Fields kept on their own sheets rather than in this one. */
  skip: readonly string[];
}

const ENTITY_SHEETS: [sheet: string, key: string, skip?: string[]][] = [
  ['Actives', 'actives'],
  ['Intermediates', 'intermediates'],
  ['Nitrosamines', 'nitrosamines'],
  ['Cleaning agents', 'cleaningAgents'],
  ['Cleaning procedures', 'cleaningProcedures'],
  ['Analytical methods', 'analyticalMethods'],
  ['Microbial analytical methods', 'microbialMethods'],
  ['Products', 'products'],
  ['Equipment', 'equipment'],
  ['Equipment groups', 'equipmentGroups'],
  // A production's train is not in the workbook: its equipment is, on the matrix sheet.
  ['Productions', 'productions', ['trainId', 'equipmentIds', 'productIds']],
];

/** Sections whose entity is declared in this version; the others are not in the workbook. */
export function entitySections(): EntitySection[] {
  return ENTITY_SHEETS.flatMap(([sheet, key, skip]) => {
    const def = ENTITY_DEFS.find((d) => d.key === key);
    return def ? [{ sheet, def, skip: skip ?? [] }] : [];
  });
}

/** Which equipment each production uses: one row per production, one column per item. */
export const MATRIX_SHEET = 'Production-Equipment matrix';
/** Which products each production makes: one row per production and product. */
export const MAPPINGS_SHEET = 'mappings';
