import type { AuditAction } from '#core/audit/audit-events.ts';
import type { PasswordPolicy } from '#core/password/password-policy.ts';
import type { Db } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { passwordMatches, PasswordNotCheckable } from './password-check.ts';
import type { UserRow } from './users.repo.ts';

/*
 * The lockout of 21 CFR 11.300(d) and OWASP ASVS V2.2.1, for sign-in and for the password a
 * signature re-enters alike. Only a wrong password is a failure, counted in one atomic update;
 * the checks under way are counted apart, so that failures plus checks in flight never exceed
 * the policy's limit: a burst of guesses gets no more than the limit checked, and parallel
 * right passwords (30 signatures at once) wait for a place rather than being refused.
 */

/** A check started before this is left over from a stopped process and no longer holds a place. */
const FRESH = `password_check_started_at > now() - interval '1 minute'`;
const IN_FLIGHT = `case when ${FRESH} then password_checks_in_flight else 0 end`;
/** An ended lock starts the count over. */
const FAILED = `case when locked_until <= now() then 0 else failed_attempts end`;
const LOCKED = `coalesce(locked_until > now(), false)`;
const RELEASE = `password_checks_in_flight = greatest(password_checks_in_flight - 1, 0)`;

/** How long an attempt waits for a place while other checks of the account are under way. */
const WAIT_MS = 30_000;
/**
 * The first wait for a place, doubled at each try up to the last. Each try is a statement: 25
 * waiters trying every 15 ms kept the embedded database (one connection) so busy that the checks
 * they waited for could not end, and attempts ran out of time as "locked" on a loaded machine.
 */
const FIRST_POLL_MS = 15;
const LAST_POLL_MS = 250;

type Start = 'started' | 'locked' | 'busy';

async function tryStart(db: Db, userId: number, limit: number): Promise<Start> {
  const [started] = await db.query(
    `update users
        set failed_attempts = ${FAILED},
            locked_until = case when locked_until <= now() then null else locked_until end,
            password_checks_in_flight = ${IN_FLIGHT} + 1,
            password_check_started_at = now()
      where id = $1 and not ${LOCKED} and ${FAILED} + ${IN_FLIGHT} < $2
      returning id`,
    [userId, limit],
  );
  if (started) return 'started';
  const [state] = await db.query<{ locked: boolean; in_flight: number }>(
    `select ${LOCKED} or ${FAILED} >= $2 as locked, ${IN_FLIGHT} as in_flight
       from users where id = $1`,
    [userId, limit],
  );
  // Only a lock refuses. The checks that held every place may all have ended between the two
  // statements (in_flight 0 here): that is a place free now, not a lock; and a limit lowered
  // below the failures counted reads as locked above.
  return !state || state.locked ? 'locked' : 'busy';
}

/** Takes a place among the account's checks, waiting while others are under way; false if locked. */
async function startCheck(db: Db, userId: number, limit: number): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  for (let poll = FIRST_POLL_MS; ; poll = Math.min(poll * 2, LAST_POLL_MS)) {
    const start = await tryStart(db, userId, limit);
    if (start !== 'busy') return start === 'started';
    if (Date.now() > deadline) return false;
    // Jittered, so that waiters released together do not all try again at one moment.
    await new Promise((resolve) => setTimeout(resolve, poll * (0.5 + Math.random())));
  }
}

export type PasswordAttempt =
  | { outcome: 'right' }
  /** `attempt`: the failures counted with this one; `locked` when this one locked the account. */
  | { outcome: 'wrong'; attempt: number; locked: boolean }
  | { outcome: 'locked' }
  /** The password could not be checked (the directory is down): not the user's failure. */
  | { outcome: 'unchecked'; message: string };

/**
 * Checks a password under the lockout. A wrong one is counted and audited as `failed` (a
 * sign-in's LoginFailed, a signature's SignatureFailed), with the Lock row when it reaches
 * the limit; a right one clears the count, unless a parallel wrong one has locked the account.
 */
export async function checkPasswordAttempt(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  user: Pick<UserRow, 'id' | 'plan_id' | 'auth_type' | 'password_hash' | 'username'>,
  password: string,
  policy: PasswordPolicy,
  failed: { action: AuditAction<'Authentication'>; values: Record<string, unknown> },
): Promise<PasswordAttempt> {
  if (!(await startCheck(db, user.id, policy.maxLoginAttempts))) return { outcome: 'locked' };
  let right: boolean;
  try {
    right = await passwordMatches(db, config, user, password);
  } catch (error) {
    await db.query(`update users set ${RELEASE} where id = $1`, [user.id]);
    if (!(error instanceof PasswordNotCheckable)) throw error;
    return { outcome: 'unchecked', message: error.message };
  }
  if (right) {
    const [row] = await db.query<{ locked: boolean }>(
      `update users set ${RELEASE},
              failed_attempts = case when ${LOCKED} then failed_attempts else 0 end
        where id = $1 returning ${LOCKED} as locked`,
      [user.id],
    );
    return row?.locked ? { outcome: 'locked' } : { outcome: 'right' };
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ attempt: number; locked: boolean }>(
      `update users set ${RELEASE}, failed_attempts = failed_attempts + 1,
              locked_until = case when failed_attempts + 1 >= $2 and not ${LOCKED}
                                  then now() + make_interval(mins => $3) else locked_until end
        where id = $1
        returning failed_attempts as attempt, failed_attempts = $2 as locked`,
      [user.id, policy.maxLoginAttempts, policy.lockoutMinutes],
    );
    const attempt = row?.attempt ?? policy.maxLoginAttempts;
    const locked = row?.locked ?? true;
    const entry = { planId: user.plan_id, domain: 'Authentication' as const, entityId: user.id };
    await writeAudit(tx, actor, {
      ...entry,
      action: failed.action,
      newValues: { ...failed.values, failedAttempts: attempt },
    });
    if (locked) {
      await writeAudit(tx, actor, {
        ...entry,
        action: 'Lock',
        newValues: { lockedForMinutes: policy.lockoutMinutes, failedAttempts: attempt },
      });
    }
    return { outcome: 'wrong', attempt, locked };
  });
}
