import { READ_ONLY, type Db } from '#server/db/db.ts';

/**
 * What one open screen needs to know to refetch: which record of which kind reached which
 * version. Never the record's content (it is read again through the ordinary, guarded routes).
 */
export interface LiveChange {
  kind: string;
  id: number;
  version: number;
}

type Listener = (change: LiveChange) => void;

interface VersionRow {
  id: string;
  table_name: string;
  record_id: number;
  facility_id: number;
  version: number;
}

const POLL_MS = 700;
// record_versions ids are taken as each transaction commits (a deferred trigger), so on a
// PostgreSQL server two commits can land out of id order only within an instant: each poll
// reads this many ids back again and drops those already announced.
const LOOK_BACK = 200;
const BATCH = 1000;

/**
 * The changes of every facility, read from the versions every record write keeps
 * (record_versions, server/records/README.md): one read per instant while anyone listens, the
 * same on embedded PGlite and on a PostgreSQL server, and it sees the commits of every app
 * instance. A facility's listeners hear only that facility's rows.
 */
export function createLiveEvents(db: Db) {
  const listeners = new Map<number, Set<Listener>>();
  let cursor: bigint | null = null;
  // Where listening began: the look-back must not announce what was there before.
  let floor = 0n;
  const announced = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let lastCount: number | undefined;
  let polling: Promise<void> | null = null;

  async function start(): Promise<void> {
    const [row] = await db.query<{ last: string | null }>(
      `${READ_ONLY}select max(id)::text as last from record_versions`,
    );
    cursor = BigInt(row?.last ?? '0');
    floor = cursor;
  }

  async function poll(): Promise<void> {
    if (cursor === null) await start();
    // Embedded PGlite has no other writer than this process: no write statement since the last
    // read means nothing moved. A server's count follows list versions, which not every table
    // with versions moves, so there every tick reads (one primary-key range).
    const count = db.kind === 'pglite' ? db.changeCount?.() : undefined;
    if (count !== undefined && count === lastCount) return;
    lastCount = count;
    const from = cursor! > BigInt(LOOK_BACK) ? cursor! - BigInt(LOOK_BACK) : 0n;
    const rows = await db.query<VersionRow>(
      `${READ_ONLY}select id::text as id, table_name, record_id, facility_id, version
         from record_versions where id > $1 and facility_id is not null order by id limit ${BATCH}`,
      [from.toString()],
    );
    for (const row of rows) {
      const id = BigInt(row.id);
      if (id > cursor!) cursor = id;
      if (id <= floor || announced.has(row.id)) continue;
      announced.add(row.id);
      const change = { kind: row.table_name, id: row.record_id, version: row.version };
      for (const listener of listeners.get(row.facility_id) ?? []) listener(change);
    }
    // Only the look-back window needs remembering.
    for (const seen of announced)
      if (BigInt(seen) <= cursor! - BigInt(LOOK_BACK)) announced.delete(seen);
    // A full batch: more are waiting, read them at once rather than an instant later.
    if (rows.length === BATCH) lastCount = undefined;
  }

  function tick(): void {
    polling ??= poll()
      .catch(() => {
        // A failed read (the database restarting) is read again at the next tick.
        lastCount = undefined;
      })
      .finally(() => {
        polling = null;
      });
  }

  const isListened = () => [...listeners.values()].some((set) => set.size > 0);

  return {
    /** Hears the facility's changes until the returned function is called. */
    subscribe(facilityId: number, listener: Listener): () => void {
      const set = listeners.get(facilityId) ?? new Set();
      set.add(listener);
      listeners.set(facilityId, set);
      // Polls only while someone listens: an instance nobody watches reads nothing.
      if (!timer) {
        lastCount = undefined;
        timer = setInterval(tick, POLL_MS).unref();
        tick();
      }
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(facilityId);
        if (!isListened() && timer) {
          clearInterval(timer);
          timer = undefined;
          // The next listener starts from then: what happened while no one listened is read
          // by the screens themselves as they open.
          cursor = null;
          announced.clear();
        }
      };
    },
    /**
     * Resolves once the reader knows where listening began, so that every commit after it is
     * announced (the `ready` of the stream); or once no one listens any more.
     */
    async listening(): Promise<void> {
      while (cursor === null && timer) {
        await polling;
        if (cursor === null) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    /** Waits for a read under way (tests and shutdown). */
    async settled(): Promise<void> {
      await polling;
    },
  };
}

export type LiveEvents = ReturnType<typeof createLiveEvents>;
