import { Button, Checkbox, Flex, Form, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { GuardResource } from '#core/permissions/permission-map.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { signerProofOf, type SignerProofValues } from '#client/shared/records/SignerProofField.tsx';
import { SignedJustificationFields } from '#client/shared/records/SignedJustificationFields.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { ReportTable } from './ReportTable.tsx';
import {
  signOverride,
  useWorstProducts,
  withdrawOverride,
  type WorstProductRow,
  type WorstSide,
} from './worst-products-api.ts';

/*
 * The worst-case product of each train and of each item of equipment (issue 32): the one the
 * ranking's criteria compute, why, and the site's signed override where one is in force. An
 * override is a signed act (21 CFR 11.200: the signer's password) with its justification (EU GMP
 * Annex 15 §10.12); a product whose limit is less strict is taken only keeping the computed limit.
 */

const SIDES: Record<WorstSide, { resource: GuardResource; title: string; noun: string }> = {
  trains: { resource: 'WorstProductOverride', title: 'Per train', noun: 'Train' },
  equipment: { resource: 'EquipmentWiseWorstProduct', title: 'Per equipment', noun: 'Equipment' },
};

const targetIdOf = (row: WorstProductRow) =>
  'productionId' in row ? row.productionId : row.equipmentId;

export function WorstProductsTab() {
  const permissions = usePermissions();
  return (
    <Flex vertical gap={24}>
      {(['trains', 'equipment'] as const)
        .filter((side) => permissions.can(SIDES[side].resource, 'Get'))
        .map((side) => (
          <WorstProductsTable key={side} side={side} />
        ))}
    </Flex>
  );
}

type Dialog = { kind: 'override' | 'withdraw'; row: WorstProductRow } | null;

function WorstProductsTable({ side }: { side: WorstSide }) {
  const { resource, title, noun } = SIDES[side];
  const permissions = usePermissions();
  const query = useWorstProducts(side, true);
  const numbers = useNumberFormat();
  const dates = useDateFormat();
  const [dialog, setDialog] = useState<Dialog>(null);
  const rowsOf = (data: NonNullable<typeof query.data>): WorstProductRow[] =>
    'trains' in data ? data.trains : data.equipment;
  // A production's override follows its equipment train: none without one (the server's 422).
  const onNoTrain = (row: WorstProductRow) => 'trainId' in row && row.trainId === null;
  const canOverride = (row: WorstProductRow) =>
    permissions.can(resource, row.override ? 'Modify' : 'Add') &&
    row.products.length > 1 &&
    !onNoTrain(row);
  return (
    <section aria-label={`Worst-case product ${title.toLowerCase()}`}>
      <Typography.Title level={5}>Worst-case product {title.toLowerCase()}</Typography.Title>
      <ReportTable
        query={query}
        what={`worst-case products ${title.toLowerCase()}`}
        rowsOf={rowsOf}
        intro={() =>
          'Computed by the selection criteria of the worst-case ranking; an override names another product, justified and signed, and never loosens the limit its study is judged against.'
        }
        searchPlaceholder={`Search ${noun.toLowerCase()}`}
        searchOf={(row) => [row.name, row.worstCase ?? '']}
        table={() => ({
          rowKey: (row) => targetIdOf(row),
          columns: [
            {
              key: 'name',
              title: noun,
              render: (_: unknown, row) =>
                'trainId' in row ? (
                  <Flex vertical>
                    {row.name}
                    <Typography.Text type="secondary">
                      {row.trainName === null
                        ? 'On no equipment train: put it on one to override its worst case'
                        : `Equipment train ${row.trainName}`}
                    </Typography.Text>
                  </Flex>
                ) : (
                  row.name
                ),
            },
            {
              key: 'computed',
              title: 'Computed worst case',
              render: (_: unknown, row) => row.computed.product ?? '—',
            },
            {
              key: 'why',
              title: 'Why',
              render: (_: unknown, row) => row.computed.reason.text,
            },
            {
              key: 'override',
              title: 'Override',
              render: (_: unknown, row) =>
                row.override ? (
                  <Typography.Text>
                    {row.override.product}: “{row.override.justification}”. Judged against{' '}
                    {row.overrideNow?.limit == null
                      ? 'no computable limit'
                      : `${numbers.quantity(row.overrideNow.limit, 'mg')} (${row.overrideNow.limitProduct})`}
                    . Signed by {row.override.signedBy},{' '}
                    {dates.formatDateTime(row.override.signedAt)}
                    {row.overrideNow?.review ? (
                      <Typography.Paragraph type="warning" style={{ margin: 0 }}>
                        {row.overrideNow.review}
                      </Typography.Paragraph>
                    ) : null}
                  </Typography.Text>
                ) : (
                  '—'
                ),
            },
            {
              key: 'worstCase',
              title: 'Validated on',
              render: (_: unknown, row) => row.worstCase ?? '—',
            },
            {
              key: 'actions',
              title: 'Actions',
              render: (_: unknown, row) => (
                <Flex gap={8}>
                  {canOverride(row) ? (
                    <Button size="small" onClick={() => setDialog({ kind: 'override', row })}>
                      Override
                    </Button>
                  ) : null}
                  {row.override && permissions.can(resource, 'Delete') ? (
                    <Button size="small" onClick={() => setDialog({ kind: 'withdraw', row })}>
                      Withdraw
                    </Button>
                  ) : null}
                </Flex>
              ),
            },
          ],
        })}
      />
      {dialog?.kind === 'override' ? (
        <OverrideDialog side={side} row={dialog.row} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'withdraw' ? (
        <WithdrawDialog side={side} row={dialog.row} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}

interface OverrideValues extends SignerProofValues {
  productId: number;
  keepComputedLimit?: boolean;
  justification: string;
  reason: string;
}

function useRefresh() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: limitsKeys.all(scope.facilityId) });
}

interface DialogProps {
  side: WorstSide;
  row: WorstProductRow;
  onClose: () => void;
}

function OverrideDialog({ side, row, onClose }: DialogProps) {
  const scope = useFacilityScope();
  const numbers = useNumberFormat();
  const refresh = useRefresh();
  const choices = row.products.filter((p) => p.name !== row.computed.product);
  async function save(values: OverrideValues) {
    await signOverride(scope, side, targetIdOf(row), {
      productId: values.productId,
      justification: values.justification,
      keepComputedLimit: values.keepComputedLimit === true,
      reason: values.reason,
      ...(row.override ? { replaces: row.override.id } : {}),
      ...signerProofOf(values),
    });
    await refresh();
  }
  const computedLimit =
    row.computed.lowestMaco === null ? 'none' : numbers.quantity(row.computed.lowestMaco, 'mg');
  return (
    <ReasonDialog<OverrideValues>
      name="worst-product-override"
      title={`Worst-case override: ${row.name}`}
      okText="Sign and save"
      description={`Computed worst case: ${row.computed.product ?? 'none'} (lowest MACO ${computedLimit}). ${row.computed.reason.text}.`}
      initialValues={{ keepComputedLimit: false }}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        label="Worst-case product"
        name="productId"
        rules={[{ required: true, message: 'Choose the product to validate on' }]}
      >
        <Select
          options={choices.map((p) => ({
            value: p.id,
            label: `${p.name}, lowest MACO ${p.lowestMaco === null ? 'none' : numbers.quantity(p.lowestMaco, 'mg')}`,
          }))}
        />
      </Form.Item>
      <Form.Item name="keepComputedLimit" valuePropName="checked">
        <Checkbox>
          Keep the computed worst case’s limit for the study (needed for a product whose limit is
          less strict)
        </Checkbox>
      </Form.Item>
      <SignedJustificationFields
        meaning={meaningOf('WorstProductOverride', 'Approve')}
        required="A worst-case override needs a justification"
      />
    </ReasonDialog>
  );
}

function WithdrawDialog({ side, row, onClose }: DialogProps) {
  const scope = useFacilityScope();
  const refresh = useRefresh();
  return (
    <ReasonDialog
      name="worst-product-withdraw"
      title={`Withdraw the override of ${row.name}`}
      okText="Withdraw"
      danger
      description={`The computed worst case, ${row.computed.product ?? 'none'}, applies again.`}
      onSubmit={async (values) => {
        await withdrawOverride(scope, side, targetIdOf(row), {
          overrideId: row.override!.id,
          reason: values.reason,
        });
        await refresh();
      }}
      onClose={onClose}
    />
  );
}
