import { Alert, Descriptions, Drawer, Table, Tag, Tooltip, Typography } from 'antd';
import { GoalSeekPanel } from './GoalSeekPanel.tsx';
import type { ContractPair, ContractQuantity } from '#core/limits/contract-output.ts';
import type { SampleRuleName } from '#core/limits/matrix.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { DerivationView } from './DerivationView.tsx';
import { SampleLimitBasisTag } from './SampleLimitBasisTag.tsx';
import { areaLabel, explainPair } from './pair-explanation.ts';
import { usePairDerivation } from './use-pair-derivation.ts';
import type { CriterionRow } from './pair-explanation.ts';

interface PairDrawerProps {
  pair: ContractPair | null;
  /** The production filter the matrix was opened under: the derivation uses the same data. */
  productionId?: number | undefined;
  onClose: () => void;
}

/** How a pair's MACO and SAL were reached, from the matrix document's own numbers. */
export function PairDrawer({ pair, productionId, onClose }: PairDrawerProps) {
  return (
    <Drawer
      open={pair !== null}
      size={640}
      onClose={onClose}
      title={pair ? `${pair.previous} → ${pair.next}` : ''}
      destroyOnHidden
    >
      {pair ? <PairExplanationView pair={pair} productionId={productionId} /> : null}
    </Drawer>
  );
}

/** A swab or rinse limit with the marker of the policy ceiling that set it, if one did. */
function sampleItem(
  key: string,
  label: string,
  limit: ContractQuantity<string> | null | undefined,
  basis: SampleRuleName | undefined,
  text: (quantity: unknown) => string,
) {
  if (!limit) return [];
  const children = (
    <>
      {text(limit)}
      <SampleLimitBasisTag basis={basis} />
    </>
  );
  return [{ key, label, children }];
}

function PairExplanationView({
  pair,
  productionId,
}: {
  pair: ContractPair;
  productionId: number | undefined;
}) {
  const numbers = useNumberFormat();
  const explanation = explainPair(pair);
  // Same query as the derivation below (cached once): it names the area the policy uses.
  const derivation = usePairDerivation(pair.previous, pair.next, productionId);
  return (
    <>
      <Descriptions
        bordered
        size="small"
        column={1}
        items={[
          { key: 'previous', label: 'Previous product', children: pair.previous },
          { key: 'next', label: 'Next product', children: pair.next },
          {
            key: 'shared',
            label: 'Shared equipment',
            children: pair.sharedEquipment.join(', '),
          },
          {
            key: 'area',
            label: areaLabel(derivation.data?.area),
            children: numbers.quantityOf(pair.area),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        Criteria (lowest over the previous product’s actives)
      </Typography.Title>
      <Table<CriterionRow>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={explanation.criteria}
        columns={[
          { key: 'label', title: 'Criterion', dataIndex: 'label' },
          { key: 'formula', title: 'Formula', dataIndex: 'formula' },
          {
            key: 'value',
            title: 'Value',
            render: (_: unknown, row: CriterionRow) =>
              row.value ? (
                numbers.quantityOf(row.value)
              ) : (
                // The contract gives null for both; the document does not say which.
                <Tooltip title="Switched off in the cleaning limit policy, or the data it needs is missing">
                  <Typography.Text type="secondary">not applied</Typography.Text>
                </Tooltip>
              ),
          },
          {
            key: 'governs',
            title: '',
            render: (_: unknown, row: CriterionRow) =>
              row.isGoverning ? <Tag color="green">governs</Tag> : null,
          },
        ]}
      />
      <Alert
        style={{ marginTop: 16 }}
        type={explanation.rule === 'none' ? 'warning' : 'info'}
        showIcon
        title={explanation.ruleText}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        MACO and SAL
      </Typography.Title>
      <Descriptions
        bordered
        size="small"
        column={1}
        items={[
          {
            key: 'maco',
            label: 'MACO',
            children: pair.maco
              ? `${numbers.quantityOf(pair.maco)} (${explanation.criteria.find((c) => c.isGoverning)?.label ?? pair.governing}${pair.governingActive ? `, active ${pair.governingActive}` : ''})`
              : '—',
          },
          {
            key: 'sal',
            label: 'SAL = MACO / area',
            children:
              pair.maco && pair.sal ? (
                <>
                  {numbers.quantityOf(pair.maco)} / {numbers.quantityOf(pair.area)} ={' '}
                  {explanation.salFromMaco === null
                    ? '—'
                    : numbers.quantity(explanation.salFromMaco, 'mg/sqcm')}
                  {pair.salCapped ? (
                    <div>
                      The policy’s residue limit is lower, so the SAL is capped at{' '}
                      <strong>{numbers.quantityOf(pair.sal)}</strong>.
                    </div>
                  ) : (
                    <div>
                      SAL: <strong>{numbers.quantityOf(pair.sal)}</strong>
                    </div>
                  )}
                </>
              ) : (
                '—'
              ),
          },
          ...sampleItem(
            'swab',
            'Swab limit',
            pair.swabLimit,
            derivation.data?.swabLimitBasis,
            numbers.quantityOf,
          ),
          ...sampleItem(
            'rinse',
            'Rinse limit',
            pair.rinseLimit,
            derivation.data?.rinseLimitBasis,
            numbers.quantityOf,
          ),
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        From the inputs
      </Typography.Title>
      <DerivationView previous={pair.previous} next={pair.next} productionId={productionId} />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        What would make this pass
      </Typography.Title>
      <GoalSeekPanel previous={pair.previous} next={pair.next} productionId={productionId} />
    </>
  );
}
