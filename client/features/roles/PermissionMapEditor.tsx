import { Checkbox, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  emptyPermissionMap,
  PERMISSION_RESOURCES,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';

const ALL_ACTIONS = [...new Set(Object.values(PERMISSION_RESOURCES).flat())];

interface Row {
  resource: string;
}

/** Resources × actions of spec §6 as checkboxes; an action a resource lacks shows no box. */
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

  const columns: TableColumnsType<Row> = [
    { title: 'Resource', dataIndex: 'resource', fixed: 'left', width: 220 },
    ...ALL_ACTIONS.map((action) => ({
      title: action,
      key: action,
      align: 'center' as const,
      render: (_: unknown, row: Row) =>
        PERMISSION_RESOURCES[row.resource]?.includes(action) ? (
          <Checkbox
            aria-label={`${row.resource} ${action}`}
            checked={map[row.resource]?.[action] === true}
            disabled={disabled}
            onChange={(event) => toggle(row.resource, action, event.target.checked)}
          />
        ) : null,
    })),
  ];

  return (
    <Table<Row>
      size="small"
      rowKey="resource"
      columns={columns}
      dataSource={Object.keys(PERMISSION_RESOURCES).map((resource) => ({ resource }))}
      pagination={false}
      scroll={{ x: 'max-content', y: 420 }}
    />
  );
}
