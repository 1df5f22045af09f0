import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

async function userWith(rights: Record<string, string[]>, facilityIds?: number[]) {
  const user = await buildUser(t.server.db, {
    firstName: 'Fiona',
    permissions: permissionsWith(rights),
    ...(facilityIds ? { facilityIds } : {}),
  });
  return { user, token: await t.server.login(user.username, user.password) };
}

const path = () => `${t.F}/feedback`;

describe('feedback', () => {
  it('refuses a user without a role in the facility, and stores nothing', async () => {
    const { token } = await userWith({}, []);
    const res = await t.call('POST', path(), { text: 'Hello', screenPath: '/' }, token);
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
    const [row] = await t.server.db.query<{ n: number }>('select count(*)::int as n from feedback');
    expect(row!.n).toBe(0);
  });

  it('refuses empty or overlong text with the field named, and stores nothing', async () => {
    const { token } = await userWith({ Product: ['Get'] });
    const empty = await t.call('POST', path(), { text: '   ', screenPath: '/studies' }, token);
    expect(empty.status).toBe(422);
    expect(empty.body.errName).toBe('DataValidationError');
    expect(empty.body.errors).toEqual([
      { property: 'text', constraints: { too_small: 'Please describe your feedback' } },
    ]);
    const long = await t.call('POST', path(), { text: 'x'.repeat(4001) }, token);
    expect(long.status).toBe(422);
    expect(long.body.errors[0].constraints).toEqual({
      too_big: 'Feedback can be at most 4000 characters',
    });
    const [row] = await t.server.db.query<{ n: number }>('select count(*)::int as n from feedback');
    expect(row!.n).toBe(0);
  });

  it('stores what any member sends, with user, facility and screen, and audits it', async () => {
    const { user, token } = await userWith({ Product: ['Get'] });
    const res = await t.call(
      'POST',
      path(),
      { text: '  The MAC matrix needs a search box  ', screenPath: '/limits/mac-matrix' },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.feedback).toMatchObject({
      text: 'The MAC matrix needs a search box',
      screenPath: '/limits/mac-matrix',
      userId: user.id,
    });
    const [stored] = await t.server.db.query<Record<string, unknown>>(
      'select facility_id, user_id, screen_path, text from feedback where id = $1',
      [res.body.feedback.id],
    );
    expect(stored).toEqual({
      facility_id: t.facilityId,
      user_id: user.id,
      screen_path: '/limits/mac-matrix',
      text: 'The MAC matrix needs a search box',
    });
    const [audit] = await t.server.db.query<Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any -- checked below
      `select action, facility_id, user_id, entity_id, new_values from audit_log
        where domain = 'Feedback' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({
      action: 'Create',
      facility_id: t.facilityId,
      user_id: user.id,
      entity_id: String(res.body.feedback.id),
    });
    expect(audit!.new_values).toMatchObject({ screenPath: '/limits/mac-matrix' });
  });

  it('is listed for administrators only, newest first, with search', async () => {
    const { token } = await userWith({ Product: ['Get'] });
    const refused = await t.call('GET', path(), undefined, token);
    expect(refused.status).toBe(403);
    await t.call('POST', path(), { text: 'Second: dashboard tiles are great', screenPath: '/' });
    const list = await t.call('GET', `${path()}?pageNumber=1&pageLimit=10`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.data[0]).toMatchObject({
      text: 'Second: dashboard tiles are great',
      screenPath: '/',
    });
    expect(list.body.data[1].userName).toMatch(/^Fiona /);
    const found = await t.call('GET', `${path()}?search=mac-matrix`);
    expect(found.body.total).toBe(1);
  });
});
