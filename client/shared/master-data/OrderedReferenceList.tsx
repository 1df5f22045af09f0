import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, List, Select, Space, Typography } from 'antd';
import type { EntityDef } from '#core/entities/entity.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { recordName } from '../display-labels.ts';
import { useArchivedNames, useEntityOptions } from './entity-queries.ts';

interface OrderedReferenceListProps {
  def: EntityDef;
  id?: string;
  value?: number[] | null;
  onChange?: (value: number[]) => void;
}

/**
 * Records of another entity in an order that means something (a train's equipment, in the order
 * the product passes through): a numbered list whose items move up and down, and a picker that
 * adds one at the end.
 */
export function OrderedReferenceList({ def, id, value, onChange }: OrderedReferenceListProps) {
  const ids = value ?? [];
  const options = useEntityOptions(def);
  const live = new Map((options.data?.data ?? []).map((r) => [r.id, recordName(r)]));
  const archived = useArchivedNames(def, options.isSuccess && ids.some((item) => !live.has(item)));
  const nameOf = (item: number) =>
    live.get(item) ?? (archived.has(item) ? `${archived.get(item)} (archived)` : 'Loading…');
  const noun = lowerLabel(def.label);
  const move = (from: number, to: number) => {
    const next = [...ids];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onChange?.(next);
  };
  return (
    <Space id={id} direction="vertical" style={{ width: '100%' }}>
      {ids.length === 0 ? (
        <Typography.Text type="secondary">No {noun} yet: add the first below.</Typography.Text>
      ) : (
        <List
          size="small"
          bordered
          dataSource={ids}
          aria-label={`${def.pluralLabel} in order`}
          renderItem={(item, index) => {
            const name = nameOf(item);
            return (
              <List.Item
                actions={[
                  <Button
                    key="up"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    disabled={index === 0}
                    aria-label={`Move ${name} up`}
                    onClick={() => move(index, index - 1)}
                  />,
                  <Button
                    key="down"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={index === ids.length - 1}
                    aria-label={`Move ${name} down`}
                    onClick={() => move(index, index + 1)}
                  />,
                  <Button
                    key="remove"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Remove ${name}`}
                    onClick={() => onChange?.(ids.filter((_, i) => i !== index))}
                  />,
                ]}
              >
                {`${index + 1}. ${name}`}
              </List.Item>
            );
          }}
        />
      )}
      <Select<number>
        aria-label={`Add ${noun}`}
        placeholder={`Add ${noun}`}
        showSearch={{ optionFilterProp: 'label' }}
        loading={options.isPending && !options.forbidden}
        value={null}
        options={[...live]
          .filter(([item]) => !ids.includes(item))
          .map(([item, label]) => ({ value: item, label }))}
        onChange={(item) => onChange?.([...ids, item])}
        notFoundContent={
          options.forbidden ? `You may not see ${lowerLabel(def.pluralLabel)}.` : 'Nothing to add'
        }
        style={{ width: '100%' }}
      />
    </Space>
  );
}
