import { auditEventList } from '#core/audit/audit-events.ts';
import { compileLimits, type CompiledLimits } from '#core/limits/compile.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { LIST_VERSION_SQL } from '#server/entities/list-totals.ts';
import type { ResidueType } from '#core/limits/policy.ts';
import { LruMap } from '#server/util/lru-map.ts';
import { computableLimitsInput, type ComputableInput } from './computable-input.ts';

/** The facility's matrix as one state of its data computes it, shared by every view of it. */
export interface MacMatrixState extends ComputableInput {
  /** The compiled engine, built on first use and kept with the state. */
  compiled(): CompiledLimits;
  /** What a view derives from the whole matrix (the pairs matching a filter, sorted), by key. */
  derived<T>(key: string, compute: () => T): T;
}

const MAX_STATES = 16;
const MAX_DERIVED = 32;

function newState(computed: ComputableInput): MacMatrixState {
  let compiled: CompiledLimits | undefined;
  const derived = new LruMap<{ value: unknown }>(MAX_DERIVED);
  return {
    ...computed,
    compiled: () => (compiled ??= compileLimits(computed.input)),
    derived<T>(key: string, compute: () => T): T {
      let found = derived.get(key);
      if (!found) derived.set(key, (found = { value: compute() }));
      return found.value as T;
    },
  };
}

/**
 * The version of everything the limits engine reads for a facility. Every change to GMP data
 * (master data, sampling types, policies and their approvals, archive and restore) writes an
 * audit row in its own transaction, and the row moves its chain's head in that transaction:
 * the head of `facility:<id>` (and of the facility's plan, for plan-wide records) therefore
 * moves whenever a change that may move a limit commits. Unlike `max(audit_log.id)`, a chain's
 * seq is given out under the head's row lock, so it never commits out of order. The facility's
 * list version (list-totals.ts) moves at the commit of any write to its rows, audited or not.
 * Three primary-key lookups.
 */
export async function limitsDataVersion(q: Queryable, facilityId: number): Promise<string> {
  const [row] = await q.query<{ facility: string | null; plan: string | null; list: string }>(
    `select (select seq from audit_chain_heads where chain = 'facility:' || $1::int)::text as facility,
            (select h.seq from facilities f join audit_chain_heads h on h.chain = 'plan:' || f.plan_id
              where f.id = $1::int)::text as plan,
            ${LIST_VERSION_SQL}::text as list`,
    [facilityId],
  );
  return `${row?.facility ?? 0}/${row?.plan ?? 0}/${row?.list ?? 0}`;
}

/**
 * Audit rows that record no change of GMP data (an export, a download, a refused attempt, a
 * sign-in), as 'Domain Action': the catalogue's events with `changesData: false`. They move a
 * chain's head but no data.
 */
export const READ_ONLY_AUDIT_EVENTS = auditEventList()
  .filter((event) => !event.changesData)
  .map((event) => `${event.domain} ${event.action}`);

/**
 * Whether everything the chains recorded after version `from` up to `to` (both of
 * limitsDataVersion) only read: then the data of `from` is still the data of `to`, and a state
 * computed at `from` stays current (an export of the matrix does not make the next request
 * compute it again). Both versions were read after their rows committed, and a seq below a
 * committed head is never given out again, so the rows between are all there is.
 */
async function onlyReadsBetween(q: Queryable, facilityId: number, from: string, to: string) {
  const [facilityFrom, planFrom, listFrom] = from.split('/');
  const [facilityTo, planTo, listTo] = to.split('/');
  // A row of the facility written without an audit row (by SQL outside the app, say) moves only
  // the list version: the data changed all the same.
  if (listFrom !== listTo) return false;
  const [row] = await q.query<{ changed: boolean }>(
    `select exists (
       select 1 from audit_log
        where ((chain = 'facility:' || $1::int and seq > $2::bigint and seq <= $3::bigint)
            or (chain = (select 'plan:' || plan_id from facilities where id = $1::int)
                and seq > $4::bigint and seq <= $5::bigint))
          and domain || ' ' || action <> all($6::text[])) as changed`,
    [facilityId, facilityFrom!, facilityTo!, planFrom!, planTo!, READ_ONLY_AUDIT_EVENTS],
  );
  return row?.changed === false;
}

/** Which of a facility's matrices: one production's, with a residue type's policy. */
export interface MacMatrixOptions {
  productionId?: number | undefined;
  /** Chemical unless a view asks for another (the nitrosamine PDF). */
  residueType?: ResidueType | undefined;
  asOf?: string | undefined;
}

interface Entry {
  version: string;
  state: Promise<MacMatrixState>;
}

/**
 * A few facilities' computed matrices in memory, least recently used first out. Each request
 * reads the data version first and the data after it, so a state is never older than its key;
 * another server instance keeps its own states, keyed by the same database versions.
 * `asOf` reads answer from the database every time, and what-if (draft or proposed policies)
 * never comes here.
 */
export class MacMatrixCache {
  private readonly entries = new LruMap<Entry>(MAX_STATES);

  async get(
    db: Queryable,
    facilityId: number,
    options: MacMatrixOptions = {},
  ): Promise<MacMatrixState> {
    if (options.asOf !== undefined)
      return newState(await computableLimitsInput(db, facilityId, options));
    const residueType = options.residueType ?? 'Chemical';
    const key = `${facilityId}:${options.productionId ?? ''}:${residueType}`;
    // First the version, then the data: data read after it is at least as new as the key.
    const version = await limitsDataVersion(db, facilityId);
    const found = this.entries.get(key);
    if (
      found &&
      (found.version === version ||
        (await onlyReadsBetween(db, facilityId, found.version, version)))
    ) {
      // Unless another request has put a newer state in its place meanwhile.
      if (this.entries.get(key) === found) found.version = version;
      return found.state;
    }
    const state = computableLimitsInput(db, facilityId, {
      productionId: options.productionId,
      residueType,
    }).then(newState);
    const entry = { version, state };
    this.entries.set(key, entry);
    // A failed read is not kept: the next request tries again.
    state.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return state;
  }
}

const caches = new WeakMap<Db, MacMatrixCache>();

function isOwnDb(q: Queryable): q is Db {
  return 'transaction' in q && !(q as Db).joinsTransaction;
}

/**
 * The facility's matrix state for any reader: from the cache of `q`'s database when `q` is the
 * app's database itself, computed afresh inside a transaction (which may have changed the data
 * and moved the versions before it commits, or may yet roll back) and for `asOf`.
 */
export async function macMatrixState(
  q: Queryable,
  facilityId: number,
  options: MacMatrixOptions = {},
): Promise<MacMatrixState> {
  if (isOwnDb(q)) return macMatrixCache(q).get(q, facilityId, options);
  return newState(await computableLimitsInput(q, facilityId, options));
}

/** The matrix cache of one database (one app): test servers in one process never share one. */
export function macMatrixCache(db: Db): MacMatrixCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new MacMatrixCache()));
  return cache;
}
