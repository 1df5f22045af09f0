import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The embedded database has one connection: a statement sent outside an open transaction waits
 * until that transaction has ended, so a transaction that awaits such a statement (code handed
 * `db` where it should have used `tx`) waits forever there (ecf0288b). On a server the same
 * code runs on a second connection of the pool, silently outside the transaction. The suite runs
 * mostly on a server (README, "Which tests run on which database"), so there the server keeps
 * the embedded order for what a transaction's own code sends: it waits for that transaction's
 * end, and once the wait outlasts `limitMs` it fails with the fault named instead of hanging.
 * Statements of other requests are not held: they would only wait on the embedded database.
 */
export interface TransactionOrder {
  /** Runs a transaction's whole span (begin to commit or rollback) as the open transaction. */
  span<T>(run: () => Promise<T>): Promise<T>;
  /** Before a statement or a transaction outside: waits while the caller's transaction is open. */
  outside(what: string): Promise<void>;
}

export function transactionOrder(limitMs: number): TransactionOrder {
  const open = new AsyncLocalStorage<{ ended: Promise<void> }>();
  return {
    async span(run) {
      let end = () => {};
      const ended = new Promise<void>((resolve) => (end = resolve));
      try {
        return await open.run({ ended }, run);
      } finally {
        end();
      }
    },
    async outside(what) {
      const transaction = open.getStore();
      if (!transaction) return;
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `A statement was sent outside the open transaction that started it, which waits ` +
                  `for it to end: on the embedded database, whose one connection the transaction ` +
                  `holds, it would wait forever. Use the transaction's own queryable. Statement: ` +
                  what.slice(0, 200),
              ),
            ),
          limitMs,
        );
      });
      try {
        await Promise.race([transaction.ended, stuck]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
