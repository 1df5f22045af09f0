import type { Queryable } from '#server/db/db.ts';

/**
 * Whether the role the app serves with cannot change the audit trail: it neither owns the
 * append-only tables nor may UPDATE, DELETE or TRUNCATE them, and is no superuser. False on
 * the embedded database, whose one role owns everything.
 */
export async function isAuditTrailProtected(q: Queryable): Promise<boolean> {
  const [row] = await q.query<{ protected: boolean }>(
    'select audit_trail_protected() as protected',
  );
  return row?.protected === true;
}

export const UNPROTECTED_WARNING =
  'The database role of DATABASE_URL can alter the audit trail (it owns the audit tables, may change their rows, or is a superuser). Serve with a least-privilege role and run migrations with DATABASE_OWNER_URL; see the README, "Two database roles".';

/** Logs once, at start, when a PostgreSQL server's app role could rewrite the audit trail. */
export async function warnIfAuditTrailUnprotected(
  q: Queryable & { kind: 'pglite' | 'postgres' },
  warn: (message: string) => void,
): Promise<boolean> {
  // The embedded database's one role owns everything: nothing to ask, nothing to warn about.
  if (q.kind === 'pglite') return false;
  const isProtected = await isAuditTrailProtected(q);
  if (!isProtected) warn(UNPROTECTED_WARNING);
  return isProtected;
}
