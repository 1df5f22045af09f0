import { useQueries } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { equipmentDef } from '#core/entities/defs/index.ts';
import { listLocations } from './equipment-api.ts';
import { useEntityOptions } from './entity-queries.ts';
import type { PropertyPath } from '#core/errors/property-path.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { equipmentKeys } from '../query-keys.ts';
import { usePermissions } from '../permissions.ts';
import { NAME_PENDING } from '../display-labels.ts';
import { sampleTypeLabel } from '#core/labels/enum-labels.ts';

interface SamplingLocationSelectProps {
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  'aria-label'?: string;
  /** The list row the location is picked in: its empty sample type takes the location's. */
  rowPath?: PropertyPath | undefined;
}

/** The equipment chosen in the same form (a protocol's `equipmentIds`), as ids. */
function useChosenEquipment(): number[] {
  const form = Form.useFormInstance();
  const chosen: unknown = Form.useWatch('equipmentIds', form);
  return Array.isArray(chosen) ? chosen.filter((id): id is number => typeof id === 'number') : [];
}

/**
 * The live sampling locations of the given equipment, named 'Mixer · Blade (swab)'; none are
 * asked for when the user may not read sampling locations (`forbidden` once that is known).
 */
export function useEquipmentLocations(equipmentIds: readonly number[]) {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const allowed = permissions.can('SwabLocation', 'Get');
  const names = useEntityOptions(equipmentDef);
  const nameOf = new Map((names.data?.data ?? []).map((e) => [e.id, String(e.name)]));
  const locations = useQueries({
    queries: equipmentIds.map((equipmentId) => ({
      queryKey: equipmentKeys.locations(scope.facilityId, equipmentId, false),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        listLocations(scope, equipmentId, false, signal),
      enabled: allowed,
    })),
  });
  const options = equipmentIds.flatMap((equipmentId, index) =>
    (locations[index]?.data ?? []).map((location) => ({
      value: location.id,
      sampleType: location.sampleType,
      label: `${nameOf.get(equipmentId) ?? NAME_PENDING} · ${location.name} (${sampleTypeLabel(location.sampleType)})`,
    })),
  );
  return {
    options,
    isLoading: allowed && locations.some((query) => query.isPending),
    forbidden: permissions.isKnown && !allowed,
  };
}

/**
 * Picks a sampling location among those of the equipment chosen in the same form: locations
 * are children of their equipment (…/equipments/{id}/sampling-locations), so there is no list
 * of them all to choose from.
 */
export function SamplingLocationSelect(props: SamplingLocationSelectProps) {
  const { value, onChange, rowPath, ...rest } = props;
  const form = Form.useFormInstance();
  const equipmentIds = useChosenEquipment();
  const { options, isLoading, forbidden } = useEquipmentLocations(equipmentIds);
  return (
    <Select<number | null>
      {...rest}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={isLoading}
      options={options}
      value={value ?? null}
      onChange={(next) => {
        onChange?.(next ?? null);
        const picked = options.find((option) => option.value === next);
        const typePath = rowPath ? [...rowPath, 'sampleType'] : null;
        if (picked && typePath && !form.getFieldValue(typePath))
          form.setFieldValue(typePath, picked.sampleType);
      }}
      placeholder="Choose a sampling location"
      notFoundContent={
        forbidden
          ? 'You may not see sampling locations.'
          : equipmentIds.length === 0
            ? 'Choose the equipment first'
            : isLoading
              ? 'Loading…'
              : 'The chosen equipment has no sampling locations'
      }
    />
  );
}
