import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

/*
 * The permission checks that handlers made themselves are route guards now (permission-guards.ts):
 * reading a record's signatures and its PDF, a report kind's own permission, the user access
 * screens' membership. Each refuses a user without the right with its old status and message,
 * leaves one AccessRefused row (refusal-audit.ts), and lets a user with it through.
 */
const t = useFacilityTestServer();

async function userWith(allowed: Record<string, string[]>, facilityIds?: number[]) {
  const user = await buildUser(t.server.db, {
    permissions: permissionsWith(allowed),
    ...(facilityIds ? { facilityIds } : {}),
  });
  return { id: user.id, token: await t.server.login(user.username, user.password) };
}

const refusals = (userId: number) =>
  t.server.db.query<{ domain: string; attempted: string; route: string }>(
    `select domain, new_values ->> 'attempted' as attempted, new_values ->> 'route' as route
       from audit_log where user_id = $1 and action = 'AccessRefused' order by id`,
    [userId],
  );

const get = (path: string, token: string) => t.call('GET', `${t.F}/${path}`, undefined, token);

describe("a record's signatures", () => {
  const list = 'signatures?documentType=SOP&documentId=999999';
  const pdf = 'signatures/pdf?documentType=SOP&documentId=999999';

  it('are refused without ApprovalPolicy Get or Get on the type, and the refusal audited', async () => {
    const user = await userWith({ Equipment: ['Get'] });
    for (const path of [list, pdf]) {
      const res = await get(path, user.token);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({
        errName: 'NotAllowed',
        message: 'Reading SOP signatures is not allowed',
      });
    }
    expect(await refusals(user.id)).toEqual([
      expect.objectContaining({ attempted: 'Get', route: expect.stringMatching(/\/signatures$/) }),
      expect.objectContaining({ attempted: 'Get', route: expect.stringMatching(/\/pdf$/) }),
    ]);
  });

  it('are read with Get on the type, or with ApprovalPolicy Get', async () => {
    const choices: Record<string, string[]>[] = [
      { CleaningProcedure: ['Get'] },
      { ApprovalPolicy: ['Get'] },
    ];
    for (const allowed of choices) {
      const user = await userWith(allowed);
      expect((await get(list, user.token)).body).toEqual({ signatures: [] });
      // Past the guard: the record does not exist.
      expect((await get(pdf, user.token)).status).toBe(404);
      expect(await refusals(user.id)).toEqual([]);
    }
  });
});

describe("a report kind's own permission", () => {
  it('is asked by the guard to generate the report and to read its files, and audited', async () => {
    const user = await userWith({ ReportDocument: ['Generate', 'Get'] });
    const generate = await t.call(
      'POST',
      `${t.F}/reports/generate_report`,
      { kind: 'audit-log' },
      user.token,
    );
    expect(generate.status).toBe(403);
    expect(generate.body.message).toBe('This needs the right to see the audit log');
    for (const path of ['reports/audit-log/1/pdf', 'reportDocument/audit-log/pdf/1'])
      expect((await get(path, user.token)).status, path).toBe(403);
    expect((await refusals(user.id)).map((r) => [r.domain, r.attempted])).toEqual([
      ['AuditLog', 'Get'],
      ['AuditLog', 'Get'],
      ['AuditLog', 'Get'],
    ]);
    // A kind without a permission of its own needs only ReportDocument's.
    expect((await get('reports/worst-case-ranking/999999/pdf', user.token)).status).toBe(404);
  });

  it('lets a user who holds it through', async () => {
    const user = await userWith({ ReportDocument: ['Get'], AuditLog: ['Get'] });
    for (const path of ['reports/audit-log/999999/pdf', 'reportDocument/audit-log/pdf/999999'])
      expect((await get(path, user.token)).status, path).toBe(404);
    expect(await refusals(user.id)).toEqual([]);
  });
});

describe('the user access screens of a facility', () => {
  it('are refused to a user the facility is not granted to, and the refusal audited', async () => {
    const outsider = await userWith({ User: ['Get'] }, []);
    for (const path of ['UAM/access', 'UAM/permissions'])
      expect((await get(path, outsider.token)).status, path).toBe(403);
    expect((await refusals(outsider.id)).map((r) => [r.domain, r.attempted])).toEqual([
      ['Facility', 'Member'],
      ['Facility', 'Member'],
    ]);
    const member = await userWith({ User: ['Get'] });
    expect((await get('UAM/access', member.token)).body).toEqual({ access: true });
  });
});
