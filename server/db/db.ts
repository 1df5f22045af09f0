/**
 * One small database interface over both drivers: embedded PGlite (no DATABASE_URL) and
 * node-postgres against a real server. Everything above this file writes plain PostgreSQL SQL
 * with $n parameters and never knows which driver runs it.
 */
export type SqlValue =
  string | number | boolean | null | Date | bigint | readonly unknown[] | object;

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** True for a Db joined to a transaction that is already open (see withinTransaction). */
  readonly joinsTransaction?: boolean;
  /**
   * A count that stands while no facility's list version (list-totals.ts) can have moved, so
   * that a version read while it stood may be answered again without reading it:
   * - embedded PGlite, whose one client is this process (data-dir-lock.ts): it moves after every
   *   statement and transaction, except statements that start with READ_ONLY;
   * - a PostgreSQL server: after every such statement of this process too, and whenever the
   *   server announces a new list version (any client's commit, through LISTEN); while that
   *   channel is not listening, at every call.
   * Undefined (or a call that answers undefined) when no count stands: every read is fresh.
   */
  readonly changeCount?: () => number | undefined;
  /** How busy its connections are now, for the metrics listener (undefined: not known yet). */
  readonly load?: () => DbLoad | undefined;
}

/** A server pool's clients (all, idle, and callers waiting for one), or PGlite's calls queued. */
export type DbLoad = { total: number; idle: number; waiting: number } | { queued: number };

/** Starts a statement that writes nothing (not even through a function): changeCount stays. */
export const READ_ONLY = '/* read only */ ';

/** The count behind Db.changeCount, for a driver: moved by `after` and by `changed`. */
export function changeCounter() {
  let changes = 0;
  const changed = () => {
    changes += 1;
  };
  return {
    changed,
    count: () => changes,
    /** Runs a statement (or a transaction: sql null); counts it once it ends, failed too. */
    async after<T>(sql: string | null, run: () => Promise<T>): Promise<T> {
      try {
        return await run();
      } finally {
        if (sql === null || !sql.startsWith(READ_ONLY)) changed();
      }
    },
  };
}

export type ChangeCounter = ReturnType<typeof changeCounter>;

/**
 * An error whose record must outlive the transaction it rolls back (a refused attempt is
 * audited): whoever owns that transaction calls `recordAfterRollback` once it has rolled back.
 */
export interface RecordedAfterRollback {
  recordAfterRollback(db: Db): Promise<void>;
}

export async function recordAfterRollback(error: unknown, db: Db): Promise<void> {
  const recorded = error as Partial<RecordedAfterRollback> | null;
  if (typeof recorded?.recordAfterRollback === 'function') await recorded.recordAfterRollback(db);
}

export async function one<T>(q: Queryable, sql: string, params?: readonly SqlValue[]): Promise<T> {
  const rows = await q.query<T>(sql, params);
  const row = rows[0];
  if (row === undefined) throw new Error('Expected one row, got none');
  return row;
}

export async function maybeOne<T>(
  q: Queryable,
  sql: string,
  params?: readonly SqlValue[],
): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}

/** A Db whose transactions join the open transaction `tx`, so several writes commit as one. */
export function withinTransaction(tx: Queryable, kind: Db['kind']): Db {
  return {
    kind,
    joinsTransaction: true,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (fn) => fn(tx),
    close: async () => undefined,
  };
}

// SQLSTATE classes 08 (connection exception) and 57P0x (the server shut the session down).
const CONNECTION_LOST_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * Whether `error` says the database connection died (a restart, `pg_terminate_backend`, a
 * network cut) rather than that the statement was wrong: the request may simply be retried.
 */
export function isConnectionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error and is not queryable|Client was closed/i.test(message)
  );
}

/** The embedded database's refusal once another process holds its folder (pglite-worker.mjs). */
export const LEASE_LOST = 'LEASE_LOST';

/** Whether `error` is that refusal: nothing was written, and this process is stopping. */
export function isLeaseLost(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === LEASE_LOST;
}
