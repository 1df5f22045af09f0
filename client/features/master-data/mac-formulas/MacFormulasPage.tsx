import { Result, Space } from 'antd';
import { defByPath } from '#client/shared/master-data/entity-registry.ts';
import { EntityListPage } from '../EntityListPage.tsx';
import { MacFormulaPreview } from './MacFormulaPreview.tsx';

/** The path of the MAC formulas' declaration (core/entities/defs/mac-formulas.def.ts). */
export const MAC_FORMULAS_PATH = 'mac-formulas';

/**
 * The facility's MAC formulas, beside its cleaning limit policies: the declared record's list and
 * form (each formula a controlled document: versions, signatures, the reason for every change),
 * and a preview of a formula's value for one pair of products.
 */
export function MacFormulasPage() {
  const def = defByPath(MAC_FORMULAS_PATH);
  if (!def) return <Result status="404" title="MAC formulas are not served here yet" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <EntityListPage def={def} />
      <MacFormulaPreview />
    </Space>
  );
}
