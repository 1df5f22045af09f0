import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '#core/password/password-policy.ts';
import type { Queryable } from '#server/db/db.ts';

export async function loadPasswordPolicy(q: Queryable, planId: number): Promise<PasswordPolicy> {
  const [row] = await q.query<{ password_policy: Partial<PasswordPolicy> }>(
    'select password_policy from plan_settings where plan_id = $1',
    [planId],
  );
  return { ...DEFAULT_PASSWORD_POLICY, ...(row?.password_policy ?? {}) };
}

/** The plan of a single-plan installation, for calls made before anyone is known. */
export async function defaultPlanId(q: Queryable): Promise<number | null> {
  const [row] = await q.query<{ id: number }>('select id from plans order by id limit 1');
  return row?.id ?? null;
}
