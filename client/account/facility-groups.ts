import type { Facility } from '../api/auth-types.ts';

/** Facilities grouped by facility group name, groups and members in the order the server lists them. */
export function groupFacilities(facilities: Facility[]): [string, Facility[]][] {
  const groups = new Map<string, Facility[]>();
  for (const facility of facilities) {
    const name = facility.facilityGroup?.name ?? 'Other facilities';
    const group = groups.get(name) ?? [];
    group.push(facility);
    groups.set(name, group);
  }
  return [...groups.entries()];
}
