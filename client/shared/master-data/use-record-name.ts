import { useCallback, useMemo } from 'react';
import type { EntityDef } from '#core/entities/entity.ts';
import { recordName } from '../display-labels.ts';
import { useReferenceNames } from './use-reference-names.ts';

/**
 * How a record of `def` is named in titles and messages: by its name (recordName), or for a
 * record named by what it references (`EntityDef.nameFrom`: a step's substance) by the name of
 * the first referenced record that is set, as where-used lists and the audit trail name it.
 */
export function useRecordName(
  def: EntityDef,
): (record: Readonly<Record<string, unknown>>) => string {
  const fields = useMemo(
    () => def.fields.filter((field) => def.nameFrom?.includes(field.name)),
    [def],
  );
  const nameOf = useReferenceNames(fields);
  return useCallback(
    (record) => {
      for (const name of def.nameFrom ?? []) {
        const field = fields.find((f) => f.name === name);
        const id = record[name];
        if (field?.kind === 'reference' && typeof id === 'number') return nameOf(field.entity, id);
      }
      return recordName(record);
    },
    [def, fields, nameOf],
  );
}
