import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { FieldDef } from '#core/entities/field.ts';
import { entityOptionsQuery, useCanListEntity } from './entity-queries.ts';
import { referencedDef } from './entity-registry.ts';
import type { NameLookup } from './format-value.ts';
import { referencedEntities } from './list-columns.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { NAME_PENDING, recordName } from '../display-labels.ts';

/**
 * Names of the records the given fields reference, so a production shows 'Mixer 1', not 17;
 * an id not (yet) loaded, or of an entity the user may not list, shows as '#17'.
 */
export function useReferenceNames(fields: readonly FieldDef[]): NameLookup {
  const scope = useFacilityScope();
  const refs = useMemo(
    () =>
      referencedEntities(fields).flatMap((key) => {
        const def = referencedDef(key);
        return def ? [{ key, def }] : [];
      }),
    [fields],
  );
  const canList = useCanListEntity();
  const queries = useQueries({
    queries: refs.map(({ def }) => ({ ...entityOptionsQuery(scope, def), enabled: canList(def) })),
  });
  const names = useMemo(() => {
    const map = new Map<string, string>();
    refs.forEach(({ key }, index) => {
      for (const record of queries[index]?.data?.data ?? [])
        map.set(`${key}:${record.id}`, recordName(record));
    });
    return map;
  }, [refs, queries]);
  return useCallback((key, id) => names.get(`${key}:${id}`) ?? NAME_PENDING, [names]);
}
