import { Select } from 'antd';
import type { EntityDef } from '#core/entities/entity.ts';
import { useEntityOptions } from './entity-queries.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { recordName } from '../display-labels.ts';

interface ReferenceSelectProps {
  def: EntityDef | undefined;
  multiple?: boolean | undefined;
  id?: string;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  'aria-label'?: string;
}

/** Picks records of another entity by name; the value is their ids. */
export function ReferenceSelect({ def, multiple, value, onChange, ...rest }: ReferenceSelectProps) {
  const options = useEntityOptions(def);
  const items = (options.data?.data ?? []).map((record) => ({
    label: recordName(record),
    value: record.id,
  }));
  return (
    <Select<number | number[] | null>
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={options.isPending && def !== undefined && !options.forbidden}
      options={items}
      value={value ?? (multiple ? [] : null)}
      onChange={(next) => onChange?.(next ?? null)}
      placeholder={def ? `Choose ${lowerLabel(def.pluralLabel)}` : undefined}
      notFoundContent={
        def && options.forbidden
          ? `You may not see ${lowerLabel(def.pluralLabel)}.`
          : options.isPending && def
            ? 'Loading…'
            : def
              ? `No ${lowerLabel(def.pluralLabel)} yet`
              : 'Nothing to choose'
      }
    />
  );
}
