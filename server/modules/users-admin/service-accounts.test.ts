import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditChangeLines, auditSubject } from '#core/audit/audit-format.ts';
import { permissionsWith } from '#server/test/factories.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { startSignKit, type Person, type SignKit } from '#server/test/sign-test-kit.ts';

let kit: SignKit;
let roleId: number;
let otherF: string;
let owner: Person;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

beforeAll(async () => {
  kit = await startSignKit();
  // A role that may edit and sign SOPs in the first facility only: a service account holding it
  // is still refused a signature because it is not a person.
  const [role] = await kit.server.db.query<{ id: number }>(
    `insert into roles (facility_id, name, permissions) values ($1, 'Integration', $2) returning id`,
    [
      kit.facilityId,
      JSON.stringify(
        permissionsWith({
          CleaningProcedure: ['Get', 'Add', 'Modify'],
          ApprovalPolicy: ['Get', 'Sign'],
        }),
      ),
    ],
  );
  roleId = role!.id;
  const [other] = await kit.server.db.query<{ id: number }>(
    'select id from facilities where id <> $1 order by id limit 1',
    [kit.facilityId],
  );
  otherF = `/api/v2/plans/${kit.planId}/facilities/${other!.id}`;
  owner = await kit.person({ firstName: 'Olive' });
});
afterAll(async () => {
  await kit?.close();
});

let sequence = 0;
async function account(overrides: Record<string, unknown> = {}): Promise<Body> {
  sequence += 1;
  const res = await kit.call('POST', '/api/v2/service-accounts', {
    name: `LIMS bridge ${sequence}`,
    ownerId: owner.id,
    facilityRoles: [{ facilityId: kit.facilityId, roleIds: [roleId] }],
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function issue(accountId: number, expiresInDays = 30): Promise<string> {
  const res = await kit.call('POST', `/api/v2/service-accounts/${accountId}/tokens`, {
    name: 'Nightly import',
    expiresInDays,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

function asToken(token: string, method: string, path: string, body?: unknown) {
  return kit.server.request<Body>(method, path, {
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body }),
  });
}

describe('service accounts and API tokens', () => {
  it('act with their roles in their facilities only, and their rows name the account and its owner', async () => {
    const acc = await account();
    const token = await issue(acc.id);
    const created = await asToken(token, 'POST', `${kit.F}/sop`, {
      sopNumber: `SOP-SA-${process.pid}`,
      name: 'Made by the bridge',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [row] = await kit.server.db.query<{ user_id: number; user_name: string }>(
      `select user_id, user_name from audit_log where action = 'Create' and entity_id = $1
        order by id desc limit 1`,
      [String(created.body.result.id)],
    );
    expect(row).toEqual({
      user_id: acc.id,
      user_name: `${acc.name as string} (service account of ${owner.name})`,
    });
    // Every call is audited under the account and its owner, reads and refusals included.
    await expect
      .poll(() =>
        kit.server.db.query(
          `select user_id, user_name, new_values from audit_log
            where domain = 'ServiceAccount' and action = 'Call' and entity_id = $1`,
          [String(acc.id)],
        ),
      )
      .toEqual([
        {
          user_id: acc.id,
          user_name: `${acc.name as string} (service account of ${owner.name})`,
          new_values: expect.objectContaining({
            method: 'POST',
            route: '/api/v2/plans/:plan/facilities/:facility/sop',
            status: 200,
          }),
        },
      ]);
    // Another facility, and a right the role does not give, are refused.
    expect((await asToken(token, 'GET', `${otherF}/sop`)).status).toBe(403);
    expect((await asToken(token, 'GET', '/api/v2/users')).status).toBe(403);
    // The last use is shown; the token itself is never read back.
    const listed = await kit.call('GET', `/api/v2/service-accounts/${acc.id}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({ state: 'active', name: 'Nightly import' });
    expect(listed.body[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const all = await kit.call('GET', '/api/v2/service-accounts');
    expect(JSON.stringify(all.body)).not.toContain(token);
    const stored = await kit.server.db.query<{ token_hash: string }>(
      'select token_hash from api_tokens where user_id = $1',
      [acc.id],
    );
    expect(stored[0]!.token_hash).not.toContain(token);
    const issued = await kit.lastAudit('ServiceAccount', 'TokenIssued');
    expect(JSON.stringify(issued)).not.toContain(token);
  });

  it('cannot sign, even with a role that may sign: 403 with the reason, audited', async () => {
    const acc = await account();
    const token = await issue(acc.id);
    const sop = await kit.createSop();
    const signed = await asToken(token, 'POST', `${kit.F}/signatures`, {
      documentType: 'SOP',
      documentId: sop.id,
      action: 'Submit',
      password: 'anything',
    });
    expect(signed.status).toBe(403);
    expect(signed.body).toMatchObject({ errName: 'NotAllowed', name: 'NotAllowed' });
    expect(signed.body.message).toContain('A service account cannot sign');
    const refused = await kit.lastAudit('Authentication', 'SignatureFailed');
    expect(refused).toMatchObject({
      user_id: acc.id,
      new_values: { reason: 'a service account cannot sign' },
    });
  });

  it('stops working when expired or revoked; revoking is audited with its reason', async () => {
    const acc = await account();
    const token = await issue(acc.id);
    const read = () => asToken(token, 'GET', `${kit.F}/sop`);
    expect((await read()).status).toBe(200);
    await kit.server.db.query(
      `update api_tokens set created_at = now() - interval '2 days',
                             expires_at = now() - interval '1 second' where user_id = $1`,
      [acc.id],
    );
    const expired = await read();
    expect(expired.status).toBe(401);
    expect(expired.body.errName).toBe('SessionExpired');
    // The refused call is the account's event too, with why it was refused (written as the
    // answer ends, so it is waited for).
    await expect
      .poll(() => kit.lastAudit('ServiceAccount', 'Call'))
      .toMatchObject({ user_id: acc.id, new_values: { status: 401, refused: 'expired' } });
    const listed = await kit.call('GET', `/api/v2/service-accounts/${acc.id}/tokens`);
    expect(listed.body[0].state).toBe('expired');

    const second = await issue(acc.id);
    expect((await asToken(second, 'GET', `${kit.F}/sop`)).status).toBe(200);
    const tokens = await kit.call('GET', `/api/v2/service-accounts/${acc.id}/tokens`);
    const tokenId = tokens.body[0].id as number;
    const revoke = (reason: unknown) =>
      kit.call('PUT', `/api/v2/service-accounts/${acc.id}/tokens/${tokenId}/revoke`, { reason });
    expect((await revoke('')).status).toBe(422);
    const revoked = await revoke('Bridge retired');
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ state: 'revoked', revokeReason: 'Bridge retired' });
    expect((await asToken(second, 'GET', `${kit.F}/sop`)).status).toBe(401);
    await expect
      .poll(() => kit.lastAudit('ServiceAccount', 'Call'))
      .toMatchObject({
        user_id: acc.id,
        new_values: { tokenId, method: 'GET', status: 401, refused: 'revoked' },
      });
    expect(await kit.lastAudit('ServiceAccount', 'TokenRevoked')).toMatchObject({
      user_id: kit.admin.id,
      reason: 'Bridge retired',
      new_values: { tokenId },
    });
    expect((await revoke('Again')).body.errName).toBe('NothingToChangeError');
    // The audit trail names the account and the token, never by their ids.
    const row = {
      domain: 'ServiceAccount',
      entityId: String(acc.id),
      oldValues: null,
      newValues: { tokenId, name: 'Nightly import' },
    };
    const names = await auditNames(kit.server.db, kit.planId, [row]);
    expect(auditSubject(row, names)).toBe(`Service account ‘${acc.name as string}’`);
    expect(auditChangeLines(row, { names, formatDateTime: (iso) => iso }).join(' ')).toContain(
      'API token: Nightly import',
    );
  });

  it('is administered by people with the User rights, and audited', async () => {
    const acc = await account();
    expect(await kit.lastAudit('ServiceAccount', 'Create')).toMatchObject({
      user_id: kit.admin.id,
      new_values: { name: acc.name, ownerId: owner.id },
    });
    // Without User Add, no account and no token.
    const plain = await kit.person({ edit: true });
    const body = { name: 'Not allowed', ownerId: owner.id };
    expect((await kit.call('POST', '/api/v2/service-accounts', body, plain)).status).toBe(403);
    const tokenBody = { name: 'x', expiresInDays: 5 };
    expect(
      (await kit.call('POST', `/api/v2/service-accounts/${acc.id}/tokens`, tokenBody, plain))
        .status,
    ).toBe(403);
    // Roles are edited with a reason and the version, as a user's are.
    const edited = await kit.call('POST', `/api/v2/service-accounts/${acc.id}`, {
      facilityRoles: [],
      reason: 'Import stopped',
      version: acc.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.facilityRoles).toEqual([]);
    expect(await kit.lastAudit('ServiceAccount', 'Update')).toMatchObject({
      reason: 'Import stopped',
    });
    const stale = await kit.call('POST', `/api/v2/service-accounts/${acc.id}`, {
      name: 'Renamed',
      reason: 'x',
      version: acc.version,
    });
    expect(stale.body.errName).toBe('VersionConflictError');
  });

  it('never signs in, is not listed among users, and cannot administer accounts', async () => {
    const [withUserRights] = await kit.server.db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, 'Integration admin', $2) returning id`,
      [kit.facilityId, JSON.stringify(permissionsWith({ User: ['Get', 'Add', 'Modify'] }))],
    );
    const acc = await account({
      facilityRoles: [{ facilityId: kit.facilityId, roleIds: [withUserRights!.id] }],
    });
    const token = await issue(acc.id);
    const [row] = await kit.server.db.query<{ username: string }>(
      'select username from users where id = $1',
      [acc.id],
    );
    const login = await kit.server.request<Body>('POST', '/api/v2/auth/login', {
      body: { username: row!.username, password: 'whatever' },
    });
    expect(login.status).toBe(400);
    const users = await kit.call('GET', '/api/v2/users?pageLimit=1000');
    expect(users.body.data.map((u: Body) => u.id)).not.toContain(acc.id);
    // Nor is it reached through the users' routes: no invitation, key, password or sign-in type.
    expect((await kit.call('GET', `/api/v2/users/${acc.id}`)).status).toBe(404);
    const key = await kit.call('POST', `/api/v2/users/${acc.id}/resend-invitation`, {
      reason: 'x',
      generateKey: true,
    });
    expect(key.status).toBe(404);
    const asUser = await kit.call('POST', `/api/v2/users/${acc.id}`, {
      authType: 'ad',
      reason: 'x',
      version: 1,
    });
    expect(asUser.status).toBe(404);
    const made = await asToken(token, 'POST', '/api/v2/service-accounts', {
      name: 'Child',
      ownerId: owner.id,
    });
    expect(made.status).toBe(403);
    expect(made.body.errName).toBe('NotAllowed');
    const issued = await asToken(token, 'POST', `/api/v2/service-accounts/${acc.id}/tokens`, {
      name: 'Self',
      expiresInDays: 30,
    });
    expect(issued.status).toBe(403);
  });

  it('answers bad input with the catalogue’s errors and changes nothing', async () => {
    const acc = await account();
    const before = await kit.server.db.query('select id from api_tokens');
    const cases: [unknown, string][] = [
      [{ name: 'x', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 2.5 }, 'expiresInDays'],
      [{ name: 'x' }, 'expiresInDays'],
      [{ name: ' ', expiresInDays: 5 }, 'name'],
    ];
    for (const [body, property] of cases) {
      const res = await kit.call('POST', `/api/v2/service-accounts/${acc.id}/tokens`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      expect(JSON.stringify(res.body.errors)).toContain(property);
    }
    expect(await kit.server.db.query('select id from api_tokens')).toEqual(before);
    const bad = async (body: Record<string, unknown>, status: number, property: string) => {
      const res = await kit.call('POST', '/api/v2/service-accounts', body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body.errors)).toContain(property);
    };
    await bad({ name: '', ownerId: owner.id }, 422, 'name');
    await bad({ name: 'No owner' }, 422, 'ownerId');
    await bad({ name: 'Machine owner', ownerId: acc.id }, 422, 'ownerId');
    await bad(
      {
        name: 'Bad role',
        ownerId: owner.id,
        facilityRoles: [{ facilityId: kit.facilityId, roleIds: [2_000_000] }],
      },
      422,
      'facilityRoles',
    );
    await bad({ name: acc.name, ownerId: owner.id }, 409, 'name');
    expect((await kit.call('GET', '/api/v2/service-accounts/2000000')).status).toBe(404);
    expect((await kit.call('GET', '/api/v2/service-accounts/abc')).status).toBe(422);
    expect((await kit.call('GET', `/api/v2/service-accounts/${owner.id}`)).status).toBe(404);
    // Unknown and malformed tokens are refused like an expired session.
    for (const authorization of ['Bearer nope', 'Basic abc', 'Bearer']) {
      const res = await kit.server.request<Body>('GET', `${kit.F}/sop`, {
        headers: { authorization },
      });
      expect(res.status, authorization).toBe(401);
      expect(res.body.errName).toBe('SessionExpired');
    }
  });

  it('stops working while its owner is blocked: someone must answer for it', async () => {
    const ownerOfThis = await kit.person({ firstName: 'Blocked' });
    const acc = await account({ ownerId: ownerOfThis.id });
    const token = await issue(acc.id);
    expect((await asToken(token, 'GET', `${kit.F}/sop`)).status).toBe(200);
    const blocked = await kit.call('PUT', `/api/v2/users/${ownerOfThis.id}/block`, {
      reason: 'Left the company',
    });
    expect(blocked.status).toBe(200);
    expect((await asToken(token, 'GET', `${kit.F}/sop`)).status).toBe(401);
  });

  it('archiving an account revokes its tokens', async () => {
    const acc = await account();
    const token = await issue(acc.id);
    const archived = await kit.call('PUT', `/api/v2/service-accounts/${acc.id}/archive`, {
      reason: 'Decommissioned',
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.archivedAt).not.toBeNull();
    expect((await asToken(token, 'GET', `${kit.F}/sop`)).status).toBe(401);
    const tokens = await kit.call('GET', `/api/v2/service-accounts/${acc.id}/tokens`);
    expect(tokens.body[0].state).toBe('revoked');
    const again = await kit.call('POST', `/api/v2/service-accounts/${acc.id}/tokens`, {
      name: 'x',
      expiresInDays: 1,
    });
    expect(again.body.errName).toBe('ArchivedEntryError');
  });
});
