import { Checkbox, Flex, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  emptyPermissionMap,
  PERMISSION_RESOURCES,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import { PERMISSION_TEXTS, resourceTitle } from '#core/permissions/permission-texts.ts';

interface Row {
  resource: string;
}

/**
 * The actions many areas share, as the editor's column toggles name them: ticking one gives
 * that action on every area that has it ("Creating an approver meant ticking 41 of 154 boxes").
 */
const SHARED_ACTIONS: readonly { action: string; label: string }[] = [
  { action: 'Get', label: 'See' },
  { action: 'Add', label: 'Add' },
  { action: 'Modify', label: 'Change' },
  { action: 'Delete', label: 'Delete' },
  { action: 'Archive', label: 'Archive' },
  { action: 'Set', label: 'Assign' },
  { action: 'Generate', label: 'Create' },
];

type Tick = { checked: boolean; indeterminate: boolean };

function tickOf(values: readonly boolean[]): Tick {
  const on = values.filter(Boolean).length;
  return { checked: on > 0 && on === values.length, indeterminate: on > 0 && on < values.length };
}

/**
 * The permissions of spec §6 as checkboxes, one row per area, each action by its label with
 * what it allows beside it: an administrator reads "Change equipment", never 'Equipment.Modify'.
 * Each row has an "All" toggle, and the toggles above the table give one action on every area.
 */
export function PermissionMapEditor({
  value,
  onChange,
  disabled,
}: {
  value?: PermissionMap;
  onChange?: (map: PermissionMap) => void;
  disabled?: boolean;
}) {
  const map = value ?? emptyPermissionMap();

  function toggle(resource: string, action: string, checked: boolean): void {
    onChange?.({ ...map, [resource]: { ...map[resource], [action]: checked } });
  }

  function toggleResource(resource: string, checked: boolean): void {
    const actions = PERMISSION_RESOURCES[resource] ?? [];
    onChange?.({
      ...map,
      [resource]: { ...map[resource], ...Object.fromEntries(actions.map((a) => [a, checked])) },
    });
  }

  function toggleAction(action: string, checked: boolean): void {
    const next = { ...map };
    for (const [resource, actions] of Object.entries(PERMISSION_RESOURCES))
      if (actions.includes(action)) next[resource] = { ...map[resource], [action]: checked };
    onChange?.(next);
  }

  const actionTick = (action: string) =>
    tickOf(
      Object.entries(PERMISSION_RESOURCES)
        .filter(([, actions]) => actions.includes(action))
        .map(([resource]) => map[resource]?.[action] === true),
    );

  const columns: TableColumnsType<Row> = [
    {
      title: 'Area',
      key: 'area',
      width: 240,
      render: (_: unknown, row: Row) => {
        const title = resourceTitle(row.resource);
        const tick = tickOf(
          (PERMISSION_RESOURCES[row.resource] ?? []).map((a) => map[row.resource]?.[a] === true),
        );
        return (
          <Flex vertical gap={2}>
            <Typography.Text strong>{title}</Typography.Text>
            <Checkbox
              {...tick}
              disabled={disabled}
              aria-label={`All of ${title}`}
              onChange={(event) => toggleResource(row.resource, event.target.checked)}
            >
              All
            </Checkbox>
          </Flex>
        );
      },
    },
    {
      title: 'Allowed',
      key: 'actions',
      render: (_: unknown, row: Row) => (
        <Flex vertical gap={2}>
          {(PERMISSION_RESOURCES[row.resource] ?? []).map((action) => {
            const text = PERMISSION_TEXTS[`${row.resource}.${action}`];
            return (
              <span key={action}>
                <Checkbox
                  checked={map[row.resource]?.[action] === true}
                  disabled={disabled}
                  onChange={(event) => toggle(row.resource, action, event.target.checked)}
                >
                  {text?.label}
                </Checkbox>
                <Typography.Text type="secondary">{text?.description}</Typography.Text>
              </span>
            );
          })}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={8}>
      <Space wrap aria-label="Every area">
        <Typography.Text>Every area:</Typography.Text>
        {SHARED_ACTIONS.map(({ action, label }) => (
          <Checkbox
            key={action}
            {...actionTick(action)}
            disabled={disabled}
            aria-label={`${label} in every area`}
            onChange={(event) => toggleAction(action, event.target.checked)}
          >
            {label}
          </Checkbox>
        ))}
      </Space>
      <Table<Row>
        size="small"
        rowKey="resource"
        columns={columns}
        dataSource={Object.keys(PERMISSION_RESOURCES).map((resource) => ({ resource }))}
        pagination={false}
        scroll={{ y: 420 }}
      />
    </Flex>
  );
}
