import { Result } from 'antd';
import { defByPath } from '#client/shared/master-data/entity-registry.ts';
import { EntityListPage } from '../EntityListPage.tsx';

/** The path of the protocols' declaration (core/entities/defs/protocols.def.ts). */
export const PROTOCOLS_PATH = 'protocols';

/**
 * Cleaning validation protocols: the declared record's list and form, each protocol a
 * controlled document (status, versions, signatures) that studies start from once Approved.
 */
export function ProtocolsPage() {
  const def = defByPath(PROTOCOLS_PATH);
  if (!def) return <Result status="404" title="Protocols are not served here yet" />;
  return <EntityListPage def={def} />;
}
