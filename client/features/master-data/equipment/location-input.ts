import type { LocationInput } from '#client/shared/master-data/equipment-api.ts';

/** The location form's values as the server takes them: an unfilled swab area is no area. */
export function toLocationInput(values: LocationInput): LocationInput {
  const area = values.swabArea;
  return {
    name: values.name.trim(),
    description: values.description?.trim() ? values.description.trim() : null,
    sampleType: values.sampleType,
    swabArea:
      area && typeof area.value === 'number' && area.unit
        ? { value: area.value, unit: area.unit }
        : null,
    material: values.material ?? null,
  };
}
