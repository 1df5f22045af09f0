import { AppError } from '#core/errors/errors.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf, type FieldDef } from '#core/entities/field.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';
import { READ_ONLY, type Db, type Queryable, type SqlValue } from '../db/db.ts';
import { likePattern, orderBy, pageOf, pageWindow, searchCondition } from '#server/db/paging.ts';
import { keptReads } from '#server/db/kept-reads.ts';
import {
  HISTORY_STARTS_AT,
  tableAsOf,
  tableAsOfFromEarliest,
  tableBeforeHistory,
  type AsOfOptions,
} from './entity-history.ts';
import {
  LIST_VERSION_SQL,
  MAX_PAGE_ROWS,
  listCache,
  listVersion,
  noteListVersion,
} from './list-totals.ts';
import { afterEnd, keysetSort, seekStart, type PageEnd } from './list-keyset.ts';
import { freezeDeep } from '#server/util/immutable.ts';
import { propertiesColumn, readProperties } from './entity-properties.ts';
import { ownerColumn } from './entity-scope.ts';

export interface Scope {
  planId: number;
  facilityId: number;
}

/** A declared record; a plan-scoped one (EntityDef.scope) carries `planId` in place of `facilityId`. */
export interface EntityRecord {
  id: number;
  facilityId: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  archiveReason: string | null;
  [field: string]: unknown;
}

const RECORD_COLUMNS = `id, version, created_at, updated_at, archived_at, archive_reason`;

function isJson(field: FieldDef): boolean {
  return field.kind === 'quantity' || field.kind === 'list' || field.kind === 'json';
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** Each field's name and column, worked out once per declaration (every row of a list reads them). */
const fieldColumns = new WeakMap<EntityDef, [string, string][]>();
function fieldColumnsOf(def: EntityDef): [string, string][] {
  let columns = fieldColumns.get(def);
  if (!columns) fieldColumns.set(def, (columns = def.fields.map((f) => [f.name, columnOf(f)])));
  return columns;
}

export function toRecord(def: EntityDef, row: Record<string, unknown>): EntityRecord {
  const record: Record<string, unknown> =
    def.scope === 'plan'
      ? { id: row.id, planId: row.plan_id }
      : { id: row.id, facilityId: row.facility_id };
  for (const [name, column] of fieldColumnsOf(def)) {
    const value = row[column];
    record[name] = value === undefined ? null : value;
  }
  if (def.propertyTarget) record.additionalProperties = readProperties(def, row);
  record.version = row.version;
  record.createdAt = iso(row.created_at);
  record.updatedAt = iso(row.updated_at);
  record.archivedAt = iso(row.archived_at);
  record.archiveReason = row.archive_reason ?? null;
  return record as unknown as EntityRecord;
}

/** A record read before its history began says from when its kept state is (HISTORY_STARTS_AT). */
function withHistoryStart(record: EntityRecord, row: Record<string, unknown>): EntityRecord {
  return typeof row.history_starts === 'string'
    ? { ...record, historyStartsAt: row.history_starts }
    : record;
}

export function selectList(def: EntityDef): string {
  return `${RECORD_COLUMNS}, ${ownerColumn(def)}, ${def.fields.map(columnOf).join(', ')}${propertiesColumn(def)}`;
}

/** A field's value as stored: an empty list for none, else the value itself. */
export function stored(field: FieldDef, value: unknown): unknown {
  if (value !== undefined && value !== null) return value;
  return field.kind === 'list' || (field.kind === 'reference' && field.multiple) ? [] : null;
}

/** A field's value as a query parameter: JSON text for quantities and lists. */
export function encode(field: FieldDef, value: unknown): SqlValue {
  const value_ = stored(field, value);
  return isJson(field) ? JSON.stringify(value_) : (value_ as SqlValue);
}

/** Where a page read for the list cache goes once it is built. */
interface CachedList {
  version: string;
  key: string;
  end?: PageEnd;
}

export interface ListOptions extends AsOfOptions {
  /**
   * A further condition on the rows, written against the table under its own name (it holds
   * for reads as of a moment too); `param` adds a value to the query and gives its placeholder.
   */
  filter?: (param: (value: SqlValue) => string) => string;
}

export async function listEntities(
  db: Db,
  def: EntityDef,
  facilityId: number,
  query: TListQuery,
  archived: boolean,
  options: ListOptions = {},
) {
  const { asOf, filter } = options;
  const { limit, offset } = pageWindow(query);
  const pattern = likePattern(query.search);
  // A search is kept too (issue 34): its total then comes from the kept list version, not from
  // a count of every matching row at each page of it.
  const cache = !filter && !asOf && ownerColumn(def) === 'facility_id' ? listCache(db) : undefined;
  const listKey = `${def.table}:${facilityId}:${archived}${pattern === null ? '' : `:${pattern}`}`;
  const pageKeyAt = (at: number) =>
    `${listKey}:${query.sortBy ?? ''}:${query.sortOrder ?? ''}:${limit}:${at}`;
  const pageKey = pageKeyAt(offset);
  const paged = cache && limit <= MAX_PAGE_ROWS ? cache.pages.get(pageKey) : undefined;
  // A page read before: kept while the facility's list version stands, which a one-column
  // read tells (the full statement below would describe every column of the table).
  if (paged && (await listVersion(db, facilityId)) === paged.version)
    return paged.page as ReturnType<typeof pageOf<EntityRecord>>;
  // $1 owner, then the moment (when asOf), the search (when given) and the filter's values;
  // paging comes last. A condition only when there is a search: a prepared statement's generic
  // plan cannot drop "$2 is null or …", and would then count and sort the whole facility.
  const params: SqlValue[] = [facilityId];
  const param = (value: SqlValue) => `$${params.push(value)}`;
  const source = asOf
    ? tableAsOfFromEarliest(def.table, 1, params.push(asOf), ownerColumn(def))
    : def.table;
  const search =
    pattern === null
      ? null
      : searchCondition(
          def.search.map((name) => columnOf({ name })),
          query.search!,
          param,
        );
  const where = `${ownerColumn(def)} = $1 and archived_at is ${archived ? 'not null' : 'null'}${
    search === null ? '' : ` and (${search})`
  }${filter ? ` and (${filter(param)})` : ''}`;
  const sortable = Object.fromEntries(
    def.fields
      .filter((f) => f.kind === 'text' || f.kind === 'enum' || f.kind === 'number')
      .map((f) => [f.name, columnOf(f)]),
  );
  const sortColumns: Record<string, string> = {
    ...sortable,
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  };
  const sorted = orderBy(query, sortColumns, '');
  // Ties by id in the sort's direction: pages of equal values neither overlap nor skip, and the
  // order is exactly an index's (20261218050100_list_sort_indexes.sql) read either way, so a
  // page is read from it instead of sorting every row of the facility.
  // A record without a name (a substance mapped to an API step) lists in the order it was made.
  // The one column the order reads besides id.
  const orderColumn = sorted
    ? sortColumns[query.sortBy!]
    : def.fields.some((f) => f.name === 'name')
      ? 'name'
      : undefined;
  const order = sorted
    ? `${sorted}, id ${sorted.endsWith(' desc') ? 'desc' : 'asc'}`
    : orderColumn
      ? 'lower(name), id'
      : 'id';
  // The total comes from a count of its own in the same statement: a count(*) over () would
  // read and sort every row of the facility to answer ten.
  const countSql = `(select count(*) from ${source} where ${where})::int`;
  const whereParams = [...params];
  let rows: Record<string, unknown>[];
  let cached: CachedList | undefined;
  if (cache) {
    // An unfiltered list of a facility: the page and the count are read again only when the
    // facility's list version moved since this instance last read them (list-totals.ts). The
    // page's subquery runs only when its version moved (a page may have been read in between),
    // the count's only in the case's branch that needs it.
    const counted = cache.totals.get(listKey);
    const pageVersion = param(paged?.version ?? '-1');
    const totalVersion = param(counted?.version ?? '-1');
    const knownTotal = param(counted?.total ?? 0);
    // A page kept a little before, with where it ends: this page starts after it while its
    // version stands (list-keyset.ts); when that version moved meanwhile the statement reads
    // no page, and the page is read again at its offset.
    const sort = keysetSort(query, sortColumns);
    const before = sort
      ? seekStart(offset, limit, (at) => cache.pages.get(pageKeyAt(at)))
      : undefined;
    // Written into SQL below: only ever a whole number.
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(before?.skip ?? 0))
      throw new Error(`page window ${limit} is not a whole number`);
    const base = [...params];
    const readPage = (seek: typeof before) => {
      const values = [...base];
      const value = (v: SqlValue) => `$${values.push(v)}`;
      // The page size and a seek's skip are written into the statement, not passed, and a
      // first or seeking page has no offset: PostgreSQL then plans the statement once (its
      // generic plan costs what each planned anew would) instead of planning it at every page,
      // which cost more than reading it. Both are validated integers of a handful of values.
      const window = seek
        ? `limit ${limit}${seek.skip ? ` offset ${seek.skip}` : ''}`
        : `limit ${limit}${offset ? ` offset ${value(offset)}` : ''}`;
      const condition = seek
        ? `v.list_version = ${value(seek.page.version)}::bigint and ${afterEnd(sort!, value(seek.page.end.key), value(seek.page.end.id))}`
        : 'true';
      const fresh = `${where} and v.list_version <> ${pageVersion}::bigint`;
      // A search not started after a kept page finds its matches once, for its page and its
      // count (issue 34). Apart, a statement planned once for every term counted a one-letter
      // term through the trigram index whole (no trigram to look up) and walked the sort's index
      // past every row for a rare one: 2.5 ms a search at 10,000 rows, where its matches alone
      // are 0.2 ms; they carry the column the page is ordered by.
      const matches = search !== null && !seek;
      const ids = matches
        ? `select id from matches order by ${order} ${window}`
        : `select id from ${source} where ${fresh} and ${condition} order by ${order} ${window}`;
      // A read: the Db's changeCount stays (db.ts), so the next page of this version is told
      // apart from a moved one without reading the version again first.
      return db.query<Record<string, unknown>>(
        `${READ_ONLY}select v.list_version::text as list_version, p.*
           from (select ${LIST_VERSION_SQL} as list_version) v
           left join lateral (${
             matches
               ? `with matches as materialized (
                    select id${orderColumn ? `, ${orderColumn}` : ''} from ${source} where ${fresh})`
               : ''
           }
             -- Numbered after the page is cut: a window ordered by the sort would sort every
             -- row of the facility (no top-N sort under a window), whatever the page.
             select page.*, row_number() over () as list_position from (
               select ${selectList(def)},${sort ? ` (${sort.expr})::text as list_sort_key,` : ''}
                      case when v.list_version = ${totalVersion}::bigint then ${knownTotal}::int
                           else ${matches ? '(select count(*) from matches)::int' : countSql} end as total_count
                 from ${source}
                -- The page's ids first, then its rows: the rows skipped to reach a page are
                -- read from the sort's index alone (20261218050100_list_sort_indexes.sql), not
                -- each from the table, so a late page costs a little more than the first, not
                -- a row read for every row before it.
                where id in (${ids})
                order by ${order}) page) p on true
          order by p.list_position`,
        values,
      );
    };
    const at = db.changeCount?.();
    rows = await readPage(before);
    const read = String(rows[0]!.list_version);
    if (before && read !== before.page.version && read !== paged?.version)
      rows = await readPage(undefined);
    const version = String(rows[0]!.list_version);
    // The next page of this facility then knows the version without waiting for its notice.
    noteListVersion(db, facilityId, version, at);
    if (paged && paged.version === version)
      return paged.page as ReturnType<typeof pageOf<EntityRecord>>;
    rows = rows.filter((row) => row.id !== null);
    if (rows[0]) cache.totals.set(listKey, { version, total: Number(rows[0].total_count) });
    const last = rows.at(-1);
    if (limit <= MAX_PAGE_ROWS)
      cached = {
        version,
        key: pageKey,
        ...(sort && last && rows.length === limit
          ? { end: { key: String(last.list_sort_key), id: Number(last.id) } }
          : {}),
      };
  } else {
    rows = await db.query<Record<string, unknown>>(
      `${READ_ONLY}select ${selectList(def)}${asOf ? `, ${HISTORY_STARTS_AT}` : ''}, ${countSql} as total_count
         from ${source}
        where ${where} order by ${order}
        limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, offset],
    );
  }
  let total = Number(rows[0]?.total_count ?? 0);
  if (rows.length === 0 && offset > 0) {
    const [count] = await db.query<{ n: number }>(
      `${READ_ONLY}select count(*)::int as n from ${source} where ${where}`,
      whereParams,
    );
    total = count?.n ?? 0;
  }
  const page = pageOf(
    rows.map((row) => withHistoryStart(toRecord(def, row), row)),
    total,
    query,
  );
  // Kept pages are answered to many requests at once: frozen, so that none can change another's,
  // and so that their JSON is written once (response-serializer.ts).
  if (cache && cached)
    cache.pages.set(cached.key, {
      version: cached.version,
      page: freezeDeep(page),
      ...(cached.end ? { end: cached.end } : {}),
    });
  return page;
}

/**
 * Every active record of an entity in a facility, for computations over the whole facility;
 * with `asOf`, those active at that moment, as they were then. A record made before versions
 * were kept and changed after the moment comes from its earliest kept version with
 * `historyStartsAt`, as in a list: limits, reports and snapshots as of a moment must not leave
 * out a record that existed then (21 CFR 11.10(b), complete copies of records).
 */
export async function allEntities(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  options: AsOfOptions = {},
): Promise<EntityRecord[]> {
  const { asOf } = options;
  if (!asOf) {
    // At 5,000 products an evaluation read the products, the equipment and the productions five
    // times and the actives four (kept-reads.ts).
    const once = keptReads(q, 'entities', () => new Map<string, Promise<EntityRecord[]>>());
    const key = `${def.table}:${facilityId}`;
    const read = once?.get(key);
    if (read) return read;
    const reading = q
      .query<Record<string, unknown>>(
        `select ${selectList(def)} from ${def.table}
          where ${ownerColumn(def)} = $1 and archived_at is null order by id`,
        [facilityId],
      )
      .then((rows) => rows.map((row) => toRecord(def, row)));
    once?.set(key, reading);
    return reading;
  }
  const rows = await q.query<Record<string, unknown>>(
    `select ${selectList(def)}, ${HISTORY_STARTS_AT}
       from ${tableAsOfFromEarliest(def.table, 1, 2, ownerColumn(def))}
      where ${ownerColumn(def)} = $1 and archived_at is null order by id`,
    [facilityId, asOf],
  );
  return rows.map((row) => withHistoryStart(toRecord(def, row), row));
}

/**
 * The latest moment any of `records` (records, or answers computed from them) was read from
 * before its history began, if one was.
 */
export function historyStartOf(records: Iterable<object>): string | undefined {
  let latest: string | undefined;
  for (const record of records) {
    const starts = (record as { historyStartsAt?: unknown }).historyStartsAt;
    if (typeof starts === 'string' && (latest === undefined || starts > latest)) latest = starts;
  }
  return latest;
}

/**
 * `historyStartsAt` for an answer read as of a moment, when one of `records` was read from before
 * its history began; nothing otherwise, so that an answer of today is unchanged.
 */
export function historyNote(records: Iterable<object>): {
  historyStartsAt?: string;
} {
  const starts = historyStartOf(records);
  return starts === undefined ? {} : { historyStartsAt: starts };
}

/** Reads take the owner's id as `facilityId`: the plan's, for plan-scoped declarations. */
export async function getEntity(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  id: number,
  lock = false,
  options: AsOfOptions = {},
) {
  const { asOf } = options;
  const [row] = await q.query<Record<string, unknown>>(
    `select ${selectList(def)} from ${asOf ? tableAsOf(def.table, 1, 3, 2, ownerColumn(def), { beforeHistory: false }) : def.table}
      where ${ownerColumn(def)} = $1 and id = $2 ${lock && !asOf ? 'for update' : ''}`,
    asOf ? [facilityId, id, asOf] : [facilityId, id],
  );
  if (row) return toRecord(def, row);
  if (asOf) {
    // It existed then, but its history starts later: the earliest state known, saying so,
    // rather than an answer that it never existed (21 CFR 11.10(b): accurate copies of records).
    const [first] = await q.query<Record<string, unknown>>(
      `select ${selectList(def)}, ${HISTORY_STARTS_AT}
         from ${tableBeforeHistory(def.table, ownerColumn(def))}`,
      [facilityId, id, asOf],
    );
    if (first) return withHistoryStart(toRecord(def, first), first);
  }
  // Before the record existed (asOf earlier than its creation) there was nothing to find.
  throw new AppError('NotFoundError', `${def.label} ${id} was not found`);
}
