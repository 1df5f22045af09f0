import { describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';

const t = useFacilityTestServer();

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe('input the database cannot hold is refused with 422, never 500', () => {
  it('a NUL character in a body field, named by its path', async () => {
    const res = await t.call('POST', '/api/v2/departments', { name: 'QA\u0000' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { property: 'name', constraints: { nul: expect.any(String) } },
    ]);
    expect(
      (await t.server.db.query(`select 1 from departments where name like 'QA%'`)).length,
    ).toBe(0);
  });

  it('a NUL character in the query or a path parameter', async () => {
    const search = await t.call('GET', `${t.F}/equipments?search=a%00b`);
    expect(search.status).toBe(422);
    expect(search.body.errors[0].property).toBe('query.search');
    const path = await t.call('GET', `${t.F}/cleaning_limit_policies/a%00b`);
    expect(path.status).toBeLessThan(500);
    expect(path.status).toBeGreaterThanOrEqual(400);
  });

  it('a NUL character deep in a large array, named by its index', async () => {
    const items: unknown[] = new Array(200_000).fill(0);
    items.push({ label: ['ok', 'a\u0000b'] });
    const res = await t.call('POST', '/api/v2/departments', { name: 'QA', items });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { property: 'items[200000].label[1]', constraints: { nul: expect.any(String) } },
    ]);
  });

  it('a lone surrogate', async () => {
    const res = await t.call('POST', '/api/v2/departments', { name: 'QA\ud800' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].constraints).toHaveProperty('encoding');
  });

  it('a body nested 2,000 deep', async () => {
    const res = await t.call('POST', '/api/v2/departments', { name: nested(2000) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].constraints).toHaveProperty('depth');
  });

  it('ids beyond the integer range in the path, the guard and the body', async () => {
    for (const id of ['2147483648', '9223372036854775808', '1e400', '-1']) {
      const res = await t.call('GET', `${t.F}/equipments/${id}`);
      expect({ id, status: res.status }).toEqual({ id, status: 422 });
      const guard = await t.call('GET', `/api/v2/plans/1/facilities/${id}/date-time-settings`);
      expect({ id, status: guard.status }).toEqual({ id, status: 404 });
    }
    // An id in a body that the schema lets through as an integer is refused by the database.
    const roles = await t.call('POST', `${t.F}/approval_policies`, {
      documentType: 'Protocol',
      allowSelfApproval: false,
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [2147483648], minSignatures: 2 }],
      version: 0,
      reason: 'x',
    });
    expect(roles.status).toBe(422);
  });

  it('a user without the right still gets 403 for such a body', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    const res = await t.call('POST', `${t.F}/equipments`, { name: 'a\u0000b' }, as);
    expect(res.status).toBe(403);
  });

  it('a raw body is bytes: a 50 MiB upload is read as a file, not walked byte by byte', async () => {
    // The server runs in this process: the CPU it spends on the request is this process's, which
    // a busy machine does not inflate as it does the wall-clock time.
    const started = process.cpuUsage();
    const res = await fetch(`${t.server.url}${t.F}/master?fileName=big.xlsx`, {
      method: 'POST',
      headers: {
        token: t.token,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      body: new Uint8Array(50 * 1024 * 1024 - 1024),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: unknown[] }).errors).toEqual([
      { property: 'file', constraints: { xlsx: 'The file is not an Excel workbook (.xlsx)' } },
    ]);
    // Walked byte by byte, this request did not finish in 300 s here; read, it takes about 0.5 s
    // of CPU.
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(10_000);
  });
});
