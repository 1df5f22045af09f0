import { Link } from 'react-router';
import { cleaningAgentsDef } from '../../../core/entities/defs/cleaning.def.ts';
import type { DerivationInput, SourceKind } from '../../../core/limits/derivation.ts';
import {
  activesDef,
  equipmentDef,
  productsDef,
  samplingTypesDef,
} from '../../../core/entities/defs/index.ts';

// The app shell's master-data base; not imported from MasterDataRoutes, which would pull the
// whole master-data area into the limits chunk.
const MASTER_DATA_BASE = '/master-data';

/** Where a reviewer opens each kind of record an input was entered on. */
const PAGE: Record<SourceKind, string> = {
  product: `${MASTER_DATA_BASE}/${productsDef.path}`,
  active: `${MASTER_DATA_BASE}/${activesDef.path}`,
  cleaningAgent: `${MASTER_DATA_BASE}/${cleaningAgentsDef.path}`,
  equipment: `${MASTER_DATA_BASE}/${equipmentDef.path}`,
  samplingType: `${MASTER_DATA_BASE}/${samplingTypesDef.path}`,
  policy: '/policies',
};

/** An input's source: the record by name, linked to its page; a derived value as plain text. */
export function DerivationSource({ input }: { input: DerivationInput }) {
  if (!input.record) return <>{input.source}</>;
  return <Link to={PAGE[input.record.kind]}>{input.source}</Link>;
}
