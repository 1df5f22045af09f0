import { Col, Empty, Row, Typography } from 'antd';
import { equipmentGroupsDef } from '#core/entities/defs/index.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { formatArea } from './area-format.ts';
import { MappingToolbar } from './MappingToolbar.tsx';
import {
  useGroupEquipment,
  useGroupMap,
  useNoGroupEquipment,
  useSaveGroupMap,
} from './production-mapping-api.ts';
import { TickList, type TickRow } from './TickList.tsx';
import { NO_CHANGES, applyTicks, hasChanges, toggleTick, type TickChanges } from './tick-draft.ts';
import { useMappingScreen } from './use-mapping-screen.ts';

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
  const screen = useMappingScreen<Draft>('group', 'Group mapping saved');
  const { id: groupId, draft, setDraft } = screen;
  const canSet = usePermissions().can('EquipmentGroup', 'Set');
  const groups = useEntityOptions(equipmentGroupsDef);
  const map = useGroupMap(groupId);
  const members = useGroupEquipment(groupId);
  const noGroup = useNoGroupEquipment();
  const save = useSaveGroupMap();

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
    if (groupId === undefined || !map.data) return;
    setDraft({ groupId, equipment: toggleTick(saved, changes, id, isTicked) }, map.data.version);
  }

  async function submit(reason: string): Promise<void> {
    if (!current || !map.data) return;
    const version = screen.versionOf(map.data.version);
    const { equipmentIds } = current;
    await screen.run(() =>
      save.mutateAsync({ id: current.groupId, equipmentIds, version, reason }),
    );
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
      <MappingToolbar
        screen={screen}
        label="Equipment group"
        placeholder="Choose an equipment group"
        records={groups}
        saveText="Save group"
        isChanged={isChanged}
        canSet={canSet}
        onReload={() => void screen.reload(() => Promise.all([map.refetch(), members.refetch()]))}
        loadError={map.error}
      />
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
      <ReasonDialog
        open={screen.isAsking}
        title={`Save the equipment of '${String(groupName ?? '')}'`}
        okText="Save"
        description="Equipment in a group is validated together with the other members."
        managedByCaller
        onSubmit={({ reason }) => submit(reason)}
        onClose={() => screen.setAsking(false)}
      />
    </section>
  );
}
