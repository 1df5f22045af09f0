import { randomBytes } from 'node:crypto';
import { brokenPasswordRules, DEFAULT_PASSWORD_POLICY } from '#core/password/password-policy.ts';
import { fullPermissionMap } from '#core/permissions/permission-map.ts';
import { ConfigError, type Config } from '../config.ts';
import { writeAudit, type Actor } from './audit-write.ts';
import { addRoleTemplates } from './role-templates.ts';
import { hashPassword } from '../util/secrets.ts';
import type { Db, Queryable } from './db.ts';

export const SEED_ADMIN_EMAIL = 'admin@carryover.local';
export const SEED_ADMIN_EMPLOYEE_ID = 'ADM001';
const SEED_LOCK = 7_201_812;

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  /** Set only when a password was generated: printed once, changed at first sign-in. */
  oneTimePassword?: string;
}

/** A generated password that meets the default policy: letters, digits and a special character. */
function generatePassword(): string {
  return `${randomBytes(12).toString('base64url')}#7Aa`;
}

async function insertId(q: Queryable, sql: string, params: unknown[]): Promise<number> {
  const [row] = await q.query<{ id: number }>(sql, params as never[]);
  if (!row) throw new Error('insert returned no id');
  return row.id;
}

/**
 * First start only: one plan, one facility group with two facilities (one product/full, one
 * api/lite) and an administrator. Starting again finds the plan and changes nothing.
 */
export async function seedFirstStart(
  db: Db,
  config: Pick<Config, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>,
): Promise<SeedResult> {
  if (
    config.ADMIN_PASSWORD &&
    brokenPasswordRules(config.ADMIN_PASSWORD, DEFAULT_PASSWORD_POLICY).length > 0
  ) {
    throw new ConfigError([
      `ADMIN_PASSWORD: must have at least ${DEFAULT_PASSWORD_POLICY.minPasswordLength} characters with a number, a capital letter and a special character`,
    ]);
  }
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const [existing] = await tx.query('select id from plans limit 1');
    if (existing) return { seeded: false };

    const planId = await insertId(
      tx,
      `insert into plans (name) values ('Carryover') returning id`,
      [],
    );
    await tx.query('insert into plan_settings (plan_id, password_policy) values ($1, $2)', [
      planId,
      JSON.stringify(DEFAULT_PASSWORD_POLICY),
    ]);
    const groupId = await insertId(
      tx,
      `insert into facility_groups (plan_id, name) values ($1, 'Main Site') returning id`,
      [planId],
    );
    const facilities = [
      await insertId(
        tx,
        `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
         values ($1, $2, 'Oral Solid Dosage Plant', 'product', 'full') returning id`,
        [planId, groupId],
      ),
      await insertId(
        tx,
        `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
         values ($1, $2, 'API Plant', 'api', 'lite') returning id`,
        [planId, groupId],
      ),
    ];
    const departmentId = await insertId(
      tx,
      `insert into departments (plan_id, name) values ($1, 'Quality Assurance') returning id`,
      [planId],
    );

    const adminEmail = config.ADMIN_EMAIL ?? SEED_ADMIN_EMAIL;
    const given = config.ADMIN_PASSWORD;
    const password = given ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const adminId = await insertId(
      tx,
      `insert into users (plan_id, first_name, last_name, username, email, department_id,
                          password_hash, password_changed_at, must_change_password,
                          is_system_admin)
       values ($1, 'System', 'Administrator', $2, $3, $4, $5, now(), $6, true) returning id`,
      [planId, SEED_ADMIN_EMPLOYEE_ID, adminEmail, departmentId, passwordHash, !given],
    );
    await tx.query('insert into password_history (user_id, password_hash) values ($1, $2)', [
      adminId,
      passwordHash,
    ]);
    for (const facilityId of facilities) {
      const roleId = await insertId(
        tx,
        `insert into roles (facility_id, name, permissions) values ($1, 'Administrator', $2) returning id`,
        [facilityId, JSON.stringify(fullPermissionMap())],
      );
      await tx.query(
        'insert into user_facility_roles (user_id, facility_id, role_id) values ($1, $2, $3)',
        [adminId, facilityId, roleId],
      );
    }
    const system: Actor = {
      userId: null,
      userName: 'system',
      ip: null,
      userAgent: null,
      requestId: null,
    };
    // After the seed's own row: the templates' Create rows follow the plan's creation.
    await writeAudit(tx, system, {
      planId,
      domain: 'System',
      action: 'Seed',
      entityId: planId,
      newValues: { facilities, adminUserId: adminId, adminEmail },
    });
    for (const facilityId of facilities) await addRoleTemplates(tx, system, { planId, facilityId });
    return { seeded: true, adminEmail, ...(given ? {} : { oneTimePassword: password }) };
  });
}
