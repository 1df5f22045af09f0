import { randomBytes } from 'node:crypto';
import type { Actor } from '#server/db/audit-write.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import type { Db } from '#server/db/db.ts';
import { hashPassword } from '#server/util/secrets.ts';
import type { BuiltSigner } from '#server/test/factories/signed-record.ts';

/**
 * The people of the demo facility, each holding one of the shipped role templates
 * (core/permissions/role-templates.ts): the validation engineer writes and submits, QA approves,
 * so every signature of the demo is a real one by a person allowed to give it (no
 * self-approval, 21 CFR 211.22). Their passwords are random, printed once by the CLI, and must
 * be changed at first sign-in.
 */
export const DEMO_PEOPLE = [
  {
    key: 'engineer',
    first: 'Vera',
    last: 'Engineer',
    username: 'DEMO-VE',
    role: 'Validation engineer',
  },
  { key: 'approver', first: 'Quentin', last: 'Approver', username: 'DEMO-QA', role: 'QA approver' },
  { key: 'operator', first: 'Paula', last: 'Operator', username: 'DEMO-PROD', role: 'Production' },
  { key: 'analyst', first: 'Lars', last: 'Analyst', username: 'DEMO-QC', role: 'Quality Control' },
] as const;

export type DemoPersonKey = (typeof DEMO_PEOPLE)[number]['key'];
export type DemoPeople = Record<DemoPersonKey, BuiltSigner>;

export const demoActor = (person: BuiltSigner): Actor => ({
  userId: person.id,
  userName: person.name,
  ip: null,
  userAgent: null,
  requestId: null,
});

/** The demo people of the facility, each granted their template role there. */
export async function demoPeople(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
): Promise<DemoPeople> {
  const people: Partial<DemoPeople> = {};
  for (const person of DEMO_PEOPLE) {
    const password = `${randomBytes(12).toString('base64url')}#7Aa`;
    const hash = await hashPassword(password);
    const [role] = await db.query<{ id: number }>(
      'select id from roles where facility_id = $1 and name = $2 and archived_at is null',
      [scope.facilityId, person.role],
    );
    if (!role) throw new Error(`The facility has no role '${person.role}' to give ${person.first}`);
    // One set per facility seeded: a person signs in the facility they were made for.
    const username = `${person.username}-${scope.facilityId}`;
    const [made] = await db.query<{ id: number }>(
      `insert into users (plan_id, first_name, last_name, username, password_hash,
                          password_changed_at, must_change_password, created_by, updated_by)
       values ($1, $2, $3, $4, $5, now(), true, $6, $6) returning id`,
      [scope.planId, person.first, person.last, username, hash, actor.userId],
    );
    const id = made!.id;
    await db.query('insert into password_history (user_id, password_hash) values ($1, $2)', [
      id,
      hash,
    ]);
    await writeAudit(db, actor, {
      planId: scope.planId,
      domain: 'User',
      action: 'Create',
      entityId: id,
      reason: 'Demo data',
      newValues: {
        firstName: person.first,
        lastName: person.last,
        username,
        facilityRoles: [{ facilityId: scope.facilityId, roleIds: [role.id] }],
      },
    });
    await db.query(
      'insert into user_facility_roles (user_id, facility_id, role_id) values ($1, $2, $3)',
      [id, scope.facilityId, role.id],
    );
    people[person.key] = { id, username, password, name: `${person.first} ${person.last}` };
  }
  return people as DemoPeople;
}
