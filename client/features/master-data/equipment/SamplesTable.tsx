import { Button, Flex, Form, Input, Segmented, Select, Table } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import {
  addSample,
  listSamples,
  setSampleArchived,
} from '#client/shared/master-data/equipment-api.ts';
import type { SampleInput } from '#client/shared/master-data/equipment-api.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { equipmentKeys } from '#client/shared/query-keys.ts';
import { SAMPLE_TYPE_LABELS, sampleTypeLabel } from '#core/labels/enum-labels.ts';
import { SAMPLE_TYPES } from '#core/schemas/verification.schemas.ts';

const TESTS = ['TOC', 'pH', 'Conductivity', 'AA', 'Odour', 'RC', 'Microbial'];

/** The samples taken at one sampling location: listed, added, archived and restored. */
export function SamplesTable({
  scope,
  equipmentId,
  locationId,
  canEdit,
}: {
  scope: FacilityScope;
  equipmentId: number;
  locationId: number;
  canEdit: boolean;
}) {
  const [archived, setArchived] = useState(false);
  const [adding, setAdding] = useState(false);
  const queryClient = useQueryClient();
  const key = equipmentKeys.samples(scope.facilityId, equipmentId, locationId, archived);
  const samples = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listSamples(scope, equipmentId, locationId, archived, signal),
  });
  const { ask, modal } = useReasonAction();
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, false).slice(0, 5),
    });

  return (
    <Flex vertical gap="small">
      <Flex gap="small">
        <Segmented
          options={[
            { value: 'live', label: 'Samples' },
            { value: 'archived', label: 'Archived samples' },
          ]}
          value={archived ? 'archived' : 'live'}
          onChange={(value) => setArchived(value === 'archived')}
        />
        {canEdit && !archived ? <Button onClick={() => setAdding(true)}>Add sample</Button> : null}
      </Flex>
      <Table
        size="small"
        rowKey="id"
        loading={samples.isPending}
        dataSource={samples.data ?? []}
        pagination={false}
        locale={{ emptyText: archived ? 'No archived samples' : 'No samples yet' }}
        columns={[
          { title: 'Sample', dataIndex: 'name' },
          {
            title: 'Type',
            dataIndex: 'sampleType',
            render: (type: string) => sampleTypeLabel(type),
          },
          { title: 'Test', dataIndex: 'analyticalTest' },
          { title: 'Sample number', dataIndex: 'batchNumber' },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, sample: { id: number; name: string }) =>
              canEdit ? (
                <Button
                  type="link"
                  onClick={() =>
                    ask({
                      title: `${archived ? 'Restore' : 'Archive'} sample ${sample.name}`,
                      okText: archived ? 'Restore' : 'Archive',
                      danger: !archived,
                      run: async (reason) => {
                        await setSampleArchived(
                          scope,
                          equipmentId,
                          locationId,
                          sample.id,
                          !archived,
                          reason,
                        );
                        await refresh();
                      },
                    })
                  }
                >
                  {archived ? 'Restore' : 'Archive'}
                </Button>
              ) : null,
          },
        ]}
      />
      {adding ? (
        <ReasonDialog<SampleInput & { reason: string }>
          name="sample"
          title="Add sample"
          okText="Add sample"
          initialValues={{ sampleType: 'swab' }}
          onSubmit={async ({ reason, ...input }) => {
            await addSample(scope, equipmentId, locationId, input, reason);
            await refresh();
          }}
          onClose={() => setAdding(false)}
        >
          <Form.Item name="name" label="Sample name" rules={[{ required: true, whitespace: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="sampleType" label="Sample type">
            <Select
              options={SAMPLE_TYPES.map((value) => ({ value, label: SAMPLE_TYPE_LABELS[value] }))}
            />
          </Form.Item>
          <Form.Item name="analyticalTest" label="Analytical test">
            <Select allowClear options={TESTS.map((value) => ({ value, label: value }))} />
          </Form.Item>
          <Form.Item name="batchNumber" label="Sample number">
            <Input />
          </Form.Item>
        </ReasonDialog>
      ) : null}
      {modal}
    </Flex>
  );
}
