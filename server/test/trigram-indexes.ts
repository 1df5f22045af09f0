import type { Queryable } from '#server/db/db.ts';

/** The trigram (gin_trgm_ops) indexes of the schema, each with its storage options. */
export function trigramIndexes(
  q: Queryable,
): Promise<{ name: string; options: string[] | null }[]> {
  return q.query(
    `select c.relname as name, c.reloptions as options
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where exists (select 1 from pg_opclass o
                     where o.oid = any (i.indclass::oid[]) and o.opcname = 'gin_trgm_ops')`,
  );
}
