import { Alert, Button, Col, Empty, Row, Select, Space, Typography, message } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { equipmentGroupsDef } from '../../../core/entities/defs/index.ts';
import type { EntityRecord } from '../master-data/entity-api.ts';
import { describeSaveError } from '../master-data/entity-errors.ts';
import { useEntityOptions } from '../master-data/entity-queries.ts';
import { ReasonModal } from '../master-data/ReasonModal.tsx';
import { usePermissions } from '../master-data/use-permissions.ts';
import { formatArea } from './area-format.ts';
import {
  useGroupEquipment,
  useGroupMap,
  useNoGroupEquipment,
  useSaveGroupMap,
} from './production-mapping-api.ts';
import { TickList, type TickRow } from './TickList.tsx';
import { NO_CHANGES, applyTicks, hasChanges, toggleTick, type TickChanges } from './tick-draft.ts';

interface Draft {
  groupId: number;
  equipment: TickChanges;
}

const toRow = (e: EntityRecord): TickRow => ({
  id: e.id,
  name: String(e.name),
  detail: formatArea(e.surfaceArea as { value: number; unit: string } | null),
});

/**
 * Which equipment an equipment group holds (identical or equivalent items validated together):
 * untick a member to take it out, tick an item that is in no group to add it.
 */
export function EquipmentGroupMappingPage() {
  const [params, setParams] = useSearchParams();
  const groupId = Number(params.get('group')) || undefined;
  const canSet = usePermissions().can('EquipmentGroup', 'Set');
  const groups = useEntityOptions(equipmentGroupsDef);
  const map = useGroupMap(groupId);
  const members = useGroupEquipment(groupId);
  const noGroup = useNoGroupEquipment();
  const save = useSaveGroupMap();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null);
  const [isAsking, setAsking] = useState(false);

  // The user's ticks are changes to the saved list: they survive a refetch and a conflict.
  const changes = draft !== null && draft.groupId === groupId ? draft.equipment : NO_CHANGES;
  const saved = map.data?.equipmentIds ?? [];
  const current =
    map.data && map.data.groupId === groupId
      ? { groupId, equipmentIds: applyTicks(saved, changes) }
      : null;
  const isChanged = map.data !== undefined && hasChanges(saved, changes);
  const ticked = new Set(current?.equipmentIds ?? []);
  // Members just added from the no-group list stay in that list, ticked, until saved.
  const memberRows = (members.data?.data ?? []).map(toRow);
  const freeRows = (noGroup.data?.data ?? []).map(toRow);

  function toggle(id: number, isTicked: boolean) {
    if (groupId === undefined) return;
    setDraft({ groupId, equipment: toggleTick(saved, changes, id, isTicked) });
  }

  async function submit(reason: string): Promise<void> {
    if (!current || !map.data) return;
    try {
      await save.mutateAsync({
        id: current.groupId,
        equipmentIds: current.equipmentIds,
        version: map.data.version,
        reason,
      });
      setDraft(null);
      setProblem(null);
      setAsking(false);
      void message.success('Group mapping saved');
    } catch (error) {
      const described = describeSaveError(error);
      setProblem({
        title: described.title,
        message: error instanceof Error ? error.message : described.message,
      });
      setAsking(false);
    }
  }

  const groupName = groups.data?.data.find((g) => g.id === groupId)?.name;
  return (
    <section aria-label="Equipment Group Mapping">
      <Typography.Title level={3} style={{ margin: 0 }}>
        Equipment Group Mapping
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Identical or equivalent equipment is validated together as a group. Untick a member to take
        it out of the group; tick equipment that is in no group to add it.
      </Typography.Paragraph>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select
          aria-label="Equipment group"
          placeholder="Choose an equipment group"
          style={{ width: 320 }}
          showSearch={{ optionFilterProp: 'label' }}
          loading={groups.isPending}
          value={groupId}
          options={(groups.data?.data ?? []).map((g) => ({ value: g.id, label: String(g.name) }))}
          onChange={(id: number) => {
            setProblem(null);
            setDraft(null);
            setParams({ group: String(id) });
          }}
        />
        <Button type="primary" disabled={!isChanged || !canSet} onClick={() => setAsking(true)}>
          Save group
        </Button>
        <Button disabled={!isChanged} onClick={() => setDraft(null)}>
          Discard ticks
        </Button>
      </Space>
      {problem ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={problem.title}
          description={problem.message}
          action={
            <Button onClick={() => void Promise.all([map.refetch(), members.refetch()])}>
              Load the latest version
            </Button>
          }
        />
      ) : null}
      {map.isError ? <Alert type="error" title={map.error.message} /> : null}
      {groupId === undefined ? (
        <Empty description="Choose an equipment group to see and change its equipment" />
      ) : current ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} md={12}>
            <TickList
              title="In this group"
              detailTitle="Surface area"
              rows={memberRows}
              ticked={ticked}
              onToggle={toggle}
              disabled={!canSet}
              loading={members.isPending}
              emptyText="No equipment in this group yet"
            />
          </Col>
          <Col xs={24} md={12}>
            <TickList
              title="Equipment in no group"
              detailTitle="Surface area"
              rows={freeRows}
              ticked={ticked}
              onToggle={toggle}
              disabled={!canSet}
              loading={noGroup.isPending}
              emptyText="Every item of equipment is in a group"
            />
          </Col>
        </Row>
      ) : null}
      <ReasonModal
        open={isAsking}
        title={`Save the equipment of '${String(groupName ?? '')}'`}
        okText="Save"
        description="Equipment in a group is validated together with the other members."
        onSubmit={submit}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
