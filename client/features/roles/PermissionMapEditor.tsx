import { Checkbox, Flex, Table, Typography } from 'antd';
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
 * The permissions of spec §6 as checkboxes, one row per area, each action by its label with
 * what it allows beside it: an administrator reads "Change equipment", never 'Equipment.Modify'.
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

  const columns: TableColumnsType<Row> = [
    {
      title: 'Area',
      key: 'area',
      width: 220,
      render: (_: unknown, row: Row) => resourceTitle(row.resource),
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
    <Table<Row>
      size="small"
      rowKey="resource"
      columns={columns}
      dataSource={Object.keys(PERMISSION_RESOURCES).map((resource) => ({ resource }))}
      pagination={false}
      scroll={{ y: 420 }}
    />
  );
}
