import { Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import type { EntityDef } from '#core/entities/entity.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { listEntities, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { defByPath, lowerLabel } from '#client/shared/master-data/entity-registry.ts';
import { hasRecordPage, recordPagePath } from '#client/shared/master-data/record-pages.ts';
import { NoSuchRecord } from './RecordDetailPage.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

/** The id of the record named `name` (names are unique in a facility, archived ones too). */
async function idByName(scope: FacilityScope, def: EntityDef, name: string, signal: AbortSignal) {
  for (const archived of [false, true]) {
    const page = await listEntities(
      scope,
      def,
      { pageNumber: 1, pageLimit: 100, search: name, archived },
      signal,
    );
    const found = page.data.find(
      (record) => String(record.name).toLowerCase() === name.toLowerCase(),
    );
    if (found) return found.id;
  }
  return null;
}

/**
 * /master-data/{path}/named/{name}: a derivation names its inputs' records by name; this finds
 * the record and opens its page.
 */
export function NamedRecordRedirect() {
  const params = useParams();
  const def = defByPath(params.path);
  const name = params.name ?? '';
  if (!def || !hasRecordPage(def) || !name) return <NoSuchRecord def={def} />;
  return <FindByName def={def} name={name} />;
}

function FindByName({ def, name }: { def: EntityDef; name: string }) {
  const scope = useFacilityScope();
  const found = useQuery({
    queryKey: entityKeys.named(scope.facilityId, def, name),
    queryFn: ({ signal }) => idByName(scope, def, name, signal),
  });
  if (found.isPending) return <Spin />;
  if (found.isError) {
    return <LoadErrorAlert title={`Could not find the ${lowerLabel(def.label)}`} query={found} />;
  }
  if (found.data === null) return <NoSuchRecord def={def} />;
  return <Navigate to={recordPagePath(def, found.data)} replace />;
}
