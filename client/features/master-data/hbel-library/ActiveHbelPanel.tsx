import { Button, Checkbox, Descriptions, Empty, Flex, Form, InputNumber, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { activesDef } from '#core/entities/defs/index.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { signerProofOf, type SignerProofValues } from '#client/shared/records/SignerProofField.tsx';
import { SignedJustificationFields } from '#client/shared/records/SignedJustificationFields.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { hbelKeys, linkActive, listMonographs, type HbelLineage } from './hbel-library-api.ts';

/*
 * An active's link to the plan's HBEL library (issue 32): where its PDE comes from (the entry, its
 * version, the library's PDE), and a site override with its justification and who signed it (EMA
 * HBEL guideline §7; 21 CFR 11.50). Linking, overriding and unlinking are made here; an override
 * is an electronic signature with the signer's password (21 CFR 11.200).
 */

type LinkValues = SignerProofValues & {
  monographId: number;
  isOverride?: boolean;
  override?: number;
  justification?: string;
  reason: string;
};

export function ActiveHbelPanel({ record }: { record: EntityRecord }) {
  const numbers = useNumberFormat();
  const dates = useDateFormat();
  const permissions = usePermissions();
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'link' | 'unlink' | null>(null);
  const lineage = ((record.hbelLineage as HbelLineage[] | undefined) ?? [])[0] ?? null;
  const canModify = permissions.can('API', 'Modify');
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: entityKeys.all(scope.facilityId, activesDef) }),
      queryClient.invalidateQueries({ queryKey: hbelKeys.all(scope.planId) }),
    ]);
  const signature = lineage?.overrideSignature;
  return (
    <Flex vertical gap="middle">
      {lineage ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          items={[
            {
              key: 'entry',
              label: 'Library entry',
              children: `${lineage.number} ${lineage.substance}, version ${lineage.versionNumber}`,
            },
            {
              key: 'library',
              label: 'PDE of the library',
              children: numbers.quantityOf(lineage.libraryPde),
            },
            ...(lineage.override
              ? [
                  {
                    key: 'override',
                    label: 'Site PDE',
                    children: numbers.quantityOf(lineage.override),
                  },
                  { key: 'justification', label: 'Justification', children: lineage.justification },
                  {
                    key: 'signed',
                    label: 'Signed by',
                    children: signature
                      ? `${signature.signedBy}, ${dates.formatDateTime(signature.signedAt)} (${signature.meaning})`
                      : 'Not signed',
                  },
                ]
              : []),
            ...(lineage.endedOverride
              ? [
                  {
                    key: 'ended',
                    label: 'Site override ended',
                    children: `${numbers.quantityOf(lineage.endedOverride.pde)}, signed against version ${lineage.endedOverride.versionNumber}${lineage.endedOverride.signedBy ? ` by ${lineage.endedOverride.signedBy}` : ''} (justification: ${lineage.endedOverride.justification}); it ended when version ${lineage.versionNumber} reached this site: a new override is signed against the new PDE`,
                  },
                ]
              : []),
            {
              key: 'pde',
              label: 'PDE used by the limits',
              children: numbers.quantityOf(lineage.pde),
            },
          ]}
        />
      ) : (
        <Empty description="This active's PDE is the site's own: it is not linked to the HBEL library" />
      )}
      {canModify ? (
        <Flex gap="small">
          <Button type="primary" onClick={() => setDialog('link')}>
            {lineage ? 'Change link or override' : 'Link to the library'}
          </Button>
          {lineage ? <Button onClick={() => setDialog('unlink')}>Unlink</Button> : null}
        </Flex>
      ) : null}
      {dialog === 'link' ? (
        <LinkDialog
          record={record}
          lineage={lineage}
          onClose={() => setDialog(null)}
          onSaved={refresh}
        />
      ) : null}
      {dialog === 'unlink' ? (
        <ReasonDialog
          title={`Unlink ${String(record.name)} from the library`}
          okText="Unlink"
          danger
          description="The active keeps its PDE as the site's own value from then on."
          onSubmit={async ({ reason }) => {
            await linkActive(scope, record.id, {
              monographId: null,
              version: record.version,
              reason,
            });
            await refresh();
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Flex>
  );
}

function LinkDialog({
  record,
  lineage,
  onClose,
  onSaved,
}: {
  record: EntityRecord;
  lineage: HbelLineage | null;
  onClose: () => void;
  onSaved: () => Promise<unknown>;
}) {
  const scope = useFacilityScope();
  const numbers = useNumberFormat();
  const [form] = Form.useForm<LinkValues>();
  const isOverride = Form.useWatch('isOverride', form) === true;
  const library = useQuery({
    queryKey: hbelKeys.list(scope.planId),
    queryFn: ({ signal }) => listMonographs(scope.planId, signal),
  });
  const approved = (library.data?.items ?? []).filter((m) => m.inForce !== null);
  async function save(values: LinkValues) {
    await linkActive(scope, record.id, {
      monographId: values.monographId,
      version: record.version,
      reason: values.reason,
      ...(values.isOverride
        ? {
            pdeOverride: { value: values.override ?? 0, unit: 'mg' },
            justification: values.justification ?? '',
            ...signerProofOf(values),
          }
        : {}),
    });
    await onSaved();
  }
  return (
    <ReasonDialog<LinkValues>
      form={form}
      name="hbel-link"
      title={`Library link of ${String(record.name)}`}
      okText={isOverride ? 'Sign and save' : 'Save'}
      initialValues={{
        ...(lineage ? { monographId: lineage.monographId } : {}),
        isOverride: lineage?.override !== null && lineage?.override !== undefined,
        ...(lineage?.override ? { override: lineage.override.value } : {}),
        ...(lineage?.justification ? { justification: lineage.justification } : {}),
      }}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        label="Library entry"
        name="monographId"
        rules={[{ required: true, message: 'Choose an approved monograph' }]}
      >
        <Select
          loading={library.isPending}
          showSearch={{ optionFilterProp: 'label' }}
          options={approved.map((m) => ({
            value: m.id,
            label: `${m.number} ${m.substance}, PDE ${numbers.quantityOf(m.inForce?.pde)}`,
          }))}
        />
      </Form.Item>
      <Form.Item name="isOverride" valuePropName="checked">
        <Checkbox>Override the PDE at this site</Checkbox>
      </Form.Item>
      {isOverride ? (
        <>
          <Form.Item
            label="Site PDE (mg/day)"
            name="override"
            rules={[{ required: true, message: 'A PDE above 0 is required' }]}
          >
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
          <SignedJustificationFields
            meaning={meaningOf('HbelOverride', 'Approve')}
            required="A site override needs a justification"
          />
        </>
      ) : null}
    </ReasonDialog>
  );
}
