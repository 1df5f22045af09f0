import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { TWhereUsedRecord } from '#core/schemas/where-used.schemas.ts';
import { recordLink } from '../records/record-links.ts';

/*
 * The record pages of master data: /master-data/{path}/{id} (equipment's is its own screen).
 * Kept free of components, so the limits screens can link here without loading master data.
 */

/** The base of the master-data pages in the app shell. */
export const MASTER_DATA_BASE = '/master-data';

/** The kinds with a read-only page of their own: their fields and where they are used. */
const WITH_PAGE = new Set([
  'actives',
  'products',
  'equipment',
  'productions',
  'apiProductions',
  'cleaningAgents',
  'analyticalMethods',
]);

export function hasRecordPage(def: EntityDef): boolean {
  return WITH_PAGE.has(def.key);
}

export function recordPagePath(def: EntityDef, id: number): string {
  return `${MASTER_DATA_BASE}/${def.path}/${id}`;
}

/** A page that finds the record by its (unique) name: what a derivation names its inputs by. */
export function namedRecordPath(def: EntityDef, name: string): string {
  return `${MASTER_DATA_BASE}/${def.path}/named/${encodeURIComponent(name)}`;
}

/**
 * Where a record that uses another is opened: its own page, its equipment's page (samples and
 * sampling locations), or its list with it open (controlled records); null when none shows it.
 */
export function usingRecordPath(entityKey: string, record: TWhereUsedRecord): string | null {
  const def = ENTITY_DEFS.find((candidate) => candidate.key === entityKey);
  const equipment = ENTITY_DEFS.find((candidate) => candidate.key === 'equipment');
  if (record.equipmentId !== undefined && equipment)
    return recordPagePath(equipment, record.equipmentId);
  if (!def) return null;
  if (hasRecordPage(def)) return recordPagePath(def, record.id);
  return def.controlled ? recordLink(def.controlled.documentType, record.id) : null;
}
