import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '../test/facility-test-file.ts';

const t = useFacilityTestServer();

type Res = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are checked by the assertions
const post = (path: string, body: unknown, key?: string): Promise<Res> =>
  t.server.request('POST', path, {
    token: t.token,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const mixer = (name: string) => ({
  name,
  externalId: `EQ-${name}`,
  surfaceArea: { value: 12.5, unit: 'sqm' },
  material: 'Stainless steel 316L',
  roomGrade: 'C',
});
const countOf = async (sql: string, params: unknown[]) =>
  Number((await t.server.db.query<{ n: string }>(sql, params as never))[0]!.n);

describe('Idempotency-Key on creates', () => {
  it('a retried entity create with the same key and body replays the answer and creates nothing', async () => {
    const key = randomUUID();
    const first = await post(`${t.F}/equipments`, mixer('Idem 1'), key);
    expect(first.status).toBe(200);
    const auditRows = await countOf('select count(*) as n from audit_log', []);
    const retry = await post(`${t.F}/equipments`, mixer('Idem 1'), key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await countOf(`select count(*) as n from equipment where name = $1`, ['Idem 1'])).toBe(
      1,
    );
    expect(await countOf('select count(*) as n from audit_log', [])).toBe(auditRows);
  });

  it('the same key with another body gets 422 and creates nothing', async () => {
    const key = randomUUID();
    expect((await post(`${t.F}/equipments`, mixer('Idem 2'), key)).status).toBe(200);
    const other = await post(`${t.F}/equipments`, mixer('Idem 3'), key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ errName: 'DataValidationError' });
    expect(other.body.errors[0].property).toBe('Idempotency-Key');
    expect(await countOf(`select count(*) as n from equipment where name = $1`, ['Idem 3'])).toBe(
      0,
    );
  });

  it('a failed create keeps no key, so the corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const refused = await post(`${t.F}/equipments`, { ...mixer('Idem 4'), roomGrade: 'Z' }, key);
    expect(refused.status).toBe(422);
    const duplicate = await post(`${t.F}/equipments`, mixer('Idem 2'), key);
    expect(duplicate.status).toBe(409);
    expect(await countOf(`select count(*) as n from idempotency_keys where key = $1`, [key])).toBe(
      0,
    );
    expect((await post(`${t.F}/equipments`, mixer('Idem 4'), key)).status).toBe(200);
  });

  it('concurrent requests with one key create one record', async () => {
    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3].map(() => post('/api/v2/departments', { name: 'Idem QA' }, key)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(
      await countOf(`select count(*) as n from departments where name = $1`, ['Idem QA']),
    ).toBe(1);
  });

  it('hand-written creates take the key too (roles)', async () => {
    const key = randomUUID();
    const body = { name: 'Idem role', permissions: {} };
    const first = await post(`${t.F}/user_roles`, body, key);
    expect(first.status).toBe(200);
    expect((await post(`${t.F}/user_roles`, body, key)).body).toEqual(first.body);
    expect(await countOf(`select count(*) as n from roles where name = $1`, ['Idem role'])).toBe(1);
  });

  it('a key expires after 24 hours: the same key then creates again', async () => {
    const key = randomUUID();
    expect((await post('/api/v2/departments', { name: 'Idem old' }, key)).status).toBe(200);
    await t.server.db.query(
      `update idempotency_keys set created_at = now() - interval '25 hours' where key = $1`,
      [key],
    );
    const again = await post('/api/v2/departments', { name: 'Idem newer' }, key);
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Idem newer');
  });

  it('a malformed key is refused with 422 naming the header', async () => {
    const res = await post('/api/v2/departments', { name: 'Idem bad' }, 'has space');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].property).toBe('Idempotency-Key');
  });
});
