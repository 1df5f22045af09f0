import { Link } from 'react-router';
import { cleaningAgentsDef } from '#core/entities/defs/cleaning.def.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { DerivationInput, SourceKind } from '#core/limits/derivation.ts';
import {
  activesDef,
  equipmentDef,
  productsDef,
  samplingTypesDef,
} from '#core/entities/defs/index.ts';
import { MASTER_DATA_BASE, namedRecordPath } from '#client/shared/master-data/record-pages.ts';

/** The record kinds an input names, each with its page (found by the record's unique name). */
const RECORD_DEF: Partial<Record<SourceKind, EntityDef>> = {
  product: productsDef,
  active: activesDef,
  cleaningAgent: cleaningAgentsDef,
  equipment: equipmentDef,
};

/** Kinds without a page of their own per record: their list, or their screen. */
const LIST_PAGE: Partial<Record<SourceKind, string>> = {
  samplingType: `${MASTER_DATA_BASE}/${samplingTypesDef.path}`,
  policy: '/policies',
};

/** Where a reviewer opens the record an input was entered on. */
function sourcePath(record: NonNullable<DerivationInput['record']>): string | undefined {
  const def = RECORD_DEF[record.kind];
  return def ? namedRecordPath(def, record.name) : LIST_PAGE[record.kind];
}

/** An input's source: the record by name, linked to its page; a derived value as plain text. */
export function DerivationSource({ input }: { input: DerivationInput }) {
  const to = input.record ? sourcePath(input.record) : undefined;
  if (!to) return <>{input.source}</>;
  return <Link to={to}>{input.source}</Link>;
}
