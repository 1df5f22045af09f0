import { createHash } from 'node:crypto';
import pg from 'pg';
import { changeCounter, isConnectionLost, type Db, type Queryable, type SqlValue } from './db.ts';
import { watchChannel, type ChannelWatch } from './pg-channel-watch.ts';
import { transactionOrder } from './transaction-order.ts';

/** Where the list-version trigger announces a facility's new list version (list-totals.ts). */
const LIST_VERSIONS_CHANNEL = 'facility_list_versions';

// Dates come back as ISO strings from both drivers, so that code above never depends on which
// driver parsed them. PGlite returns timestamptz as Date; we normalise below for both.
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;

export async function openPostgres(
  connectionString: string,
  options: {
    max?: number;
    onError?: (error: Error) => void;
    /** Tests: keep the embedded database's order for a transaction's own code (transaction-order.ts). */
    embeddedOrderMs?: number;
  } = {},
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: string) => {
        if (oid === TIMESTAMPTZ || oid === TIMESTAMP) return (v: string) => new Date(v);
        if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format as 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A dropped idle connection emits 'error' on the pool; without a listener the process dies.
  pool.on('error', (error) => options.onError?.(error));
  // The pool listens on a client only while it is idle. A client being handed out can still get
  // its connection's error (e.g. in the same network read as its ReadyForQuery) before anyone
  // listens, and an unheard 'error' ends the process: every client listens from birth. What it
  // hears is reported by the pool or fails the client's next query.
  pool.on('connect', (client) => client.on('error', () => undefined));
  await pool.query('select 1');

  // Named statements are parsed and planned once per connection, then reused.
  const names = new Map<string, string>();
  const nameOf = (sql: string): string => {
    let name = names.get(sql);
    if (!name) {
      name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
      names.set(sql, name);
    }
    return name;
  };

  // Db.changeCount: this process's statements, and the server's notices of list versions.
  const counter = changeCounter();
  const order = options.embeddedOrderMs ? transactionOrder(options.embeddedOrderMs) : undefined;
  let listVersions: ChannelWatch | undefined;

  // One client runs one statement at a time. Code may still start several reads of one
  // transaction together (Promise.all); pg queues them but warns that it will stop doing so, so
  // statements on a transaction's client are chained here, in the order they were asked for.
  const wrap = (client: pg.Pool | pg.PoolClient, serial: boolean): Queryable => {
    let tail: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
      if (!serial) return run();
      const next = tail.then(run, run);
      tail = next.catch(() => undefined);
      return next;
    };
    const outside = serial ? undefined : order;
    return {
      async exec(sql: string) {
        await outside?.outside(sql);
        await counter.after(null, () => inTurn(() => client.query(sql)));
      },
      async query<T>(sql: string, params?: readonly SqlValue[]) {
        await outside?.outside(sql);
        const result = await counter.after(sql, () =>
          inTurn(() =>
            client.query({
              text: sql,
              values: params as unknown[] | undefined,
              name: nameOf(sql),
            }),
          ),
        );
        return result.rows as T[];
      },
    };
  };

  /** One transaction on a client of its own, from BEGIN to COMMIT or ROLLBACK. */
  const inTransaction = async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // The pool listens for errors only on idle clients. A connection dropped while checked out
    // (between two statements of this transaction) would emit an unheard 'error' and end the
    // process; this listener keeps it alive and marks the client as not to be reused.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
      options.onError?.(error);
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(wrap(client, true));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionLost(error)) lost ??= error as Error;
      if (!lost) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.removeListener('error', onError);
      // With an error, the pool destroys the client instead of lending out a dead connection.
      client.release(lost);
      counter.changed();
    }
  };

  return {
    kind: 'postgres',
    ...wrap(pool, false),
    async transaction(fn) {
      if (!order) return inTransaction(fn);
      await order.outside('begin (a transaction opened inside another)');
      return order.span(() => inTransaction(fn));
    },
    changeCount: () => {
      // Listening starts with the first caller: a Db that never keeps a version holds no
      // connection for it.
      listVersions ??= watchChannel(
        connectionString,
        LIST_VERSIONS_CHANNEL,
        counter.changed,
        options.onError,
      );
      // Deaf to other clients' commits: what is read now may already be old, so keep nothing.
      if (!listVersions.listening) counter.changed();
      return counter.count();
    },
    load: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await listVersions?.close();
      await pool.end();
    },
  };
}
