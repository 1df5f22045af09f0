import { useQueryClient } from '@tanstack/react-query';
import { Select } from 'antd';
import type { Facility } from '../api/auth-types.ts';
import { storeFacility } from '../session/session-store.ts';
import { groupFacilities } from '../account/facility-groups.ts';
import { isSessionKey } from '../shared/session-queries.ts';

interface FacilitySwitchProps {
  facilities: Facility[];
  currentFacilityId: number;
}

/** Switching facility re-scopes everything: the session changes, and facility data is refetched. */
export function FacilitySwitch({ facilities, currentFacilityId }: FacilitySwitchProps) {
  const queryClient = useQueryClient();

  function onChange(id: number): void {
    const facility = facilities.find((candidate) => candidate.id === id);
    if (!facility || facility.id === currentFacilityId) return;
    storeFacility(facility);
    // Everything except who the user is and which facilities they have depends on the facility.
    void queryClient.invalidateQueries({
      predicate: (query) => !isSessionKey(query.queryKey),
    });
  }

  const options = groupFacilities(facilities).map(([groupName, members]) => ({
    label: groupName,
    title: groupName,
    options: members.map((facility) => ({ label: facility.name, value: facility.id })),
  }));

  return (
    <Select
      aria-label="Facility"
      className="facility-switch"
      value={currentFacilityId}
      options={options}
      onChange={onChange}
      style={{ minWidth: 200 }}
    />
  );
}
