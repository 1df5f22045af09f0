import type { EntityDef } from './entity.ts';
import type { FieldDef } from './field.ts';

/*
 * The TypeScript type of a declared record, derived from its declaration (declarations are
 * `as const satisfies EntityDef<string>`, so their fields are known to the compiler). Values that are
 * not required may be null; what the server adds to every record is in RecordBase.
 */

/** A quantity as stored: a value in one of its measure's units. */
export interface StoredQuantity {
  value: number;
  unit: string;
}

/** The value of one field as a record carries it. */
export type FieldValue<F extends FieldDef> = F extends { kind: 'text' | 'longText' }
  ? string
  : F extends { kind: 'number' | 'integer' }
    ? number
    : F extends { kind: 'boolean' }
      ? boolean
      : F extends { kind: 'enum'; options: readonly (infer O)[] }
        ? O
        : F extends { kind: 'quantity' }
          ? StoredQuantity
          : F extends { kind: 'reference'; multiple: true }
            ? number[]
            : F extends { kind: 'reference' }
              ? number
              : F extends { kind: 'list'; of: infer Of extends readonly FieldDef[] }
                ? FieldsOf<Of>[]
                : unknown;

type Nullable<F extends FieldDef, V> = F extends { required: true } ? V : V | null;

/** The fields of a declaration as an object type. */
export type FieldsOf<Fields extends readonly FieldDef[]> = {
  [F in Fields[number] as F['name']]: Nullable<F, FieldValue<F>>;
};

export interface RecordBase {
  id: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  archiveReason: string | null;
}

/** A record of declaration D: its owner's id, its fields, and what every record carries. */
export type RecordOf<D extends EntityDef> = RecordBase &
  (D extends { scope: 'plan' } ? { planId: number } : { facilityId: number }) &
  FieldsOf<D['fields']>;
