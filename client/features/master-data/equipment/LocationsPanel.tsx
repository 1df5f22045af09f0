import { formatQuantity } from '#core/units/format-number.ts';
import { Button, Flex, notification, Segmented, Space, Table } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import {
  addLocation,
  archiveLocation,
  assessLocationRisk,
  editLocation,
  listLocations,
  restoreLocation,
} from '#client/shared/master-data/equipment-api.ts';
import type { SamplingLocation } from '#client/shared/master-data/equipment-api.ts';
import { changedFields } from '#client/shared/policies/document-changes.ts';
import { toLocationInput } from './location-input.ts';
import { LocationModal, RiskTag } from './LocationForms.tsx';
import { LocationAssessModal } from './AttributeAssessModal.tsx';
import { SamplesTable } from './SamplesTable.tsx';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { equipmentKeys } from '#client/shared/query-keys.ts';
import { sampleTypeLabel } from '#core/labels/enum-labels.ts';

type Editing = { kind: 'add' } | { kind: 'edit' | 'assess'; location: SamplingLocation };

/** Sampling locations of the equipment with their risk class, and the samples of each. */
export function LocationsPanel({
  scope,
  equipmentId,
  canEdit,
}: {
  scope: FacilityScope;
  equipmentId: number;
  canEdit: boolean;
}) {
  const [archived, setArchived] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const queryClient = useQueryClient();
  const locations = useQuery({
    queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, archived),
    queryFn: ({ signal }) => listLocations(scope, equipmentId, archived, signal),
  });
  const { ask, modal } = useReasonAction();
  // Both lists (live and archived) and the samples under them.
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, false).slice(0, 5),
    });
  const done = async (message: string) => {
    setEditing(null);
    notification.success({ title: 'Saved', description: message });
    await refresh();
  };

  return (
    <Flex vertical gap="middle">
      <Flex gap="small">
        <Segmented
          options={[
            { value: 'live', label: 'Sampling locations' },
            { value: 'archived', label: 'Archived locations' },
          ]}
          value={archived ? 'archived' : 'live'}
          onChange={(value) => setArchived(value === 'archived')}
        />
        {canEdit && !archived ? (
          <Button type="primary" onClick={() => setEditing({ kind: 'add' })}>
            Add sampling location
          </Button>
        ) : null}
      </Flex>
      <Table
        rowKey="id"
        loading={locations.isPending}
        dataSource={locations.data ?? []}
        pagination={false}
        locale={{ emptyText: archived ? 'No archived locations' : 'No sampling locations yet' }}
        expandable={
          archived
            ? undefined
            : {
                expandedRowRender: (location: SamplingLocation) => (
                  <SamplesTable
                    scope={scope}
                    equipmentId={equipmentId}
                    locationId={location.id}
                    canEdit={canEdit}
                  />
                ),
              }
        }
        columns={[
          { title: 'Location', dataIndex: 'name' },
          {
            title: 'Type',
            dataIndex: 'sampleType',
            render: (type: string) => sampleTypeLabel(type),
          },
          {
            title: 'Swab area',
            render: (_: unknown, l: SamplingLocation) =>
              // An entered area: every digit it was entered with.
              l.swabArea ? formatQuantity(l.swabArea.value, l.swabArea.unit, 10) : '—',
          },
          { title: 'Material', dataIndex: 'material' },
          {
            title: 'Risk',
            render: (_: unknown, l: SamplingLocation) => (
              <RiskTag level={l.riskLevel} score={l.riskScore} />
            ),
          },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, location: SamplingLocation) =>
              !canEdit ? null : archived ? (
                <Button
                  type="link"
                  onClick={() =>
                    ask({
                      title: `Restore ${location.name}`,
                      okText: 'Restore',
                      run: async (reason) => {
                        await restoreLocation(scope, equipmentId, location.id, reason);
                        await refresh();
                      },
                    })
                  }
                >
                  Restore
                </Button>
              ) : (
                <Space>
                  <Button type="link" onClick={() => setEditing({ kind: 'edit', location })}>
                    Edit
                  </Button>
                  <Button type="link" onClick={() => setEditing({ kind: 'assess', location })}>
                    Assess risk
                  </Button>
                  <Button
                    type="link"
                    danger
                    onClick={() =>
                      ask({
                        title: `Archive ${location.name}`,
                        okText: 'Archive',
                        danger: true,
                        run: async (reason) => {
                          await archiveLocation(scope, equipmentId, location.id, reason);
                          await refresh();
                        },
                      })
                    }
                  >
                    Archive
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {editing?.kind === 'add' || editing?.kind === 'edit' ? (
        <LocationModal
          location={editing.kind === 'edit' ? editing.location : null}
          onCancel={() => setEditing(null)}
          onSubmit={async (values, reason) => {
            const data = toLocationInput(values);
            if (editing.kind === 'edit') {
              // Only what changed is sent: an untouched field is no change to audit.
              const { location } = editing;
              const changes = changedFields(toLocationInput(location), data);
              await editLocation(scope, equipmentId, location, changes, reason);
              await done(`${data.name} saved.`);
            } else {
              await addLocation(scope, equipmentId, data, reason);
              await done(`${data.name} added.`);
            }
          }}
        />
      ) : null}
      {editing?.kind === 'assess' ? (
        <LocationAssessModal
          location={editing.location}
          onCancel={() => setEditing(null)}
          onSubmit={async (input, reason) => {
            const { result } = await assessLocationRisk(
              scope,
              equipmentId,
              editing.location,
              input,
              reason,
            );
            await done(
              `${result.name}: ${result.riskLevel ?? ''} risk (${result.riskScore ?? ''}).`,
            );
          }}
        />
      ) : null}
      {modal}
    </Flex>
  );
}
