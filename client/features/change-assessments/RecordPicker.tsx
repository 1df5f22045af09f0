import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import { listEntities } from '#client/shared/master-data/entity-api.ts';
import { OPTIONS_PAGE_LIMIT } from '#client/shared/master-data/entity-queries.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { recordName } from '#client/shared/display-labels.ts';

/** Picks one record of an entity by name: an active one, or an archived one to restore. */
export function RecordPicker(props: {
  def: EntityDef;
  archived: boolean;
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
}) {
  const { def, archived } = props;
  const scope = useFacilityScope();
  const query = { pageNumber: 1, pageLimit: OPTIONS_PAGE_LIMIT, sortBy: 'name', archived };
  const records = useQuery({
    queryKey: entityKeys.list(scope.facilityId, def, query),
    queryFn: ({ signal }) => listEntities(scope, def, query, signal),
  });
  const label = lowerLabel(def.pluralLabel);
  return (
    <Select<number | null>
      id={props.id}
      showSearch={{ optionFilterProp: 'label' }}
      loading={records.isPending}
      value={props.value ?? null}
      onChange={(value) => props.onChange?.(value ?? null)}
      placeholder={archived ? `Choose archived ${label}` : `Choose ${label}`}
      notFoundContent={
        records.isPending ? 'Loading…' : archived ? `No archived ${label}` : `No ${label} yet`
      }
      options={(records.data?.data ?? []).map((record) => ({
        value: record.id,
        label: recordName(record),
      }))}
    />
  );
}
