import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '#core/password/password-policy.ts';
import type {
  TPasswordPolicy,
  TUpdatePasswordPolicyRequest,
} from '#core/schemas/settings.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { planSettingsDecl } from '#core/entities/defs/settings.def.ts';
import { openPlanRecord, writePlanRecord } from '#server/records/plan-record.ts';

interface PlanSettingsRow {
  password_policy: Partial<PasswordPolicy>;
  allowed_domains: string[];
  version: number;
}

/** The plan's settings row. */
async function settingsRow(q: Queryable, planId: number): Promise<PlanSettingsRow> {
  const [row] = await q.query<PlanSettingsRow>(
    `select password_policy, allowed_domains, version from plan_settings where plan_id = $1`,
    [planId],
  );
  // A plan made before plan_settings existed: its settings are the defaults until changed.
  return row ?? { password_policy: DEFAULT_PASSWORD_POLICY, allowed_domains: [], version: 1 };
}

function policyOf(row: PlanSettingsRow): PasswordPolicy {
  return { ...DEFAULT_PASSWORD_POLICY, ...row.password_policy };
}

function toResponse(policy: PasswordPolicy, version: number): TPasswordPolicy {
  return {
    passwordPolicySettings: {
      minPasswordLength: policy.minPasswordLength,
      minCapital: policy.minCapital,
      minNumber: policy.minNumber,
      specialCharacters: policy.specialCharacters,
    },
    maxLoginAttempts: policy.maxLoginAttempts,
    lockoutMinutes: policy.lockoutMinutes,
    passwordExpiryDays: policy.passwordExpiryDays,
    passwordHistoryCount: policy.passwordHistoryCount,
    version,
  };
}

export async function getPasswordPolicy(db: Db, planId: number): Promise<TPasswordPolicy> {
  const row = await settingsRow(db, planId);
  return toResponse(policyOf(row), row.version);
}

/** Changes the policy; sign-in, resets and the reset screen's checklist read it from then on. */
export async function updatePasswordPolicy(
  db: Db,
  actor: Actor,
  planId: number,
  request: TUpdatePasswordPolicyRequest,
): Promise<TPasswordPolicy> {
  return db.transaction(async (tx) => {
    const row = await openPlanRecord<PlanSettingsRow>(
      tx,
      planSettingsDecl,
      planId,
      request.version,
    );
    const before = policyOf(row);
    const next: PasswordPolicy = {
      ...request.passwordPolicySettings,
      maxLoginAttempts: request.maxLoginAttempts,
      lockoutMinutes: request.lockoutMinutes,
      passwordExpiryDays: request.passwordExpiryDays,
      passwordHistoryCount: request.passwordHistoryCount,
    };
    const diff = changedFields({ ...before }, { ...next });
    const updated = await writePlanRecord(
      tx,
      { ...planSettingsDecl, domain: 'PasswordPolicy' },
      {
        actor,
        planId,
        row,
        set: { password_policy: JSON.stringify(next) },
        audit: { action: 'Update', reason: request.reason, ...diff },
      },
    );
    return toResponse(next, updated.version as number);
  });
}

export async function getAllowedDomains(
  db: Db,
  planId: number,
): Promise<{ allowedDomains: string[]; version: number }> {
  const row = await settingsRow(db, planId);
  return { allowedDomains: row.allowed_domains, version: row.version };
}

/** Replaces the list of domains new users' addresses must belong to (empty: any domain). */
export async function updateAllowedDomains(
  db: Db,
  actor: Actor,
  planId: number,
  request: { allowedDomains: string[]; version: number; reason: string },
): Promise<{ allowedDomains: string[]; version: number }> {
  const domains = [...new Set(request.allowedDomains)].sort();
  return db.transaction(async (tx) => {
    const row = await openPlanRecord<PlanSettingsRow>(
      tx,
      planSettingsDecl,
      planId,
      request.version,
    );
    const diff = changedFields(
      { allowedDomains: [...row.allowed_domains].sort() },
      { allowedDomains: domains },
    );
    const updated = await writePlanRecord(
      tx,
      { ...planSettingsDecl, domain: 'AllowedDomains' },
      {
        actor,
        planId,
        row,
        set: { allowed_domains: domains },
        audit: { action: 'Update', reason: request.reason, ...diff },
      },
    );
    return { allowedDomains: domains, version: updated.version as number };
  });
}
