import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
let token: string;
let plan: number;
let facility: number;
let F: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.login();
  const [first] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  plan = first!.plan_id;
  facility = first!.id;
  F = `/api/v2/plans/${plan}/facilities/${facility}`;
});
afterAll(async () => {
  await server?.close();
});

type Res = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are checked by the assertions
const call = (method: string, path: string, body?: unknown, as = token): Promise<Res> =>
  server.request(method, path, { token: as, ...(body === undefined ? {} : { body }) });

const auditOf = (entityId: string) =>
  server.db.query<{ action: string; reason: string | null; old_values: any; new_values: any }>( // eslint-disable-line @typescript-eslint/no-explicit-any -- jsonb
    `select action, reason, old_values, new_values from audit_log
      where domain = 'AdditionalProperty' and entity_id = $1 order by id`,
    [entityId],
  );

describe('additional property definitions', () => {
  it('are refused to a user without the Facility permission', async () => {
    const user = await buildUser(server.db, { permissions: permissionsWith({ Product: ['Get'] }) });
    const as = await server.login(user.username, user.password);
    const body = { label: 'Refused', kind: 'text' };
    expect((await call('POST', `${F}/additional-properties/product`, body, as)).status).toBe(403);
    // Reading the definitions of an entity the user may read is allowed; of another, not.
    expect((await call('GET', `${F}/additional-properties/product`, undefined, as)).status).toBe(
      200,
    );
    const other = await call('GET', `${F}/additional-properties/api`, undefined, as);
    expect(other.status).toBe(403);
    expect(other.body.errName).toBe('NotAllowed');
    // Reading the facility's definitions does not allow changing them.
    const reader = await buildUser(server.db, {
      permissions: permissionsWith({ Facility: ['Get', 'Add'] }),
    });
    const readerToken = await server.login(reader.username, reader.password);
    expect(
      (await call('GET', `${F}/additional-properties/intermediate`, undefined, readerToken)).status,
    ).toBe(200);
    const defined = await call(
      'POST',
      `${F}/additional-properties/intermediate`,
      {
        key: 'guarded',
        label: 'Guarded',
        kind: 'select',
        options: ['A'],
      },
      readerToken,
    );
    expect(defined.status).toBe(200);
    const path = `${F}/additional-properties/intermediate/guarded`;
    const edit = { options: ['A', 'B'], reason: 'More', version: 1 };
    expect((await call('PUT', path, edit, readerToken)).status).toBe(403);
    expect((await call('PUT', `${path}/archive`, { reason: 'r' }, readerToken)).status).toBe(403);
    const edited = await call('PUT', path, edit);
    expect(edited.body.result).toMatchObject({ options: ['A', 'B'], version: 2 });
    const notSelect = await call('POST', `${F}/additional-properties/api`, {
      label: 'Plain',
      kind: 'text',
      options: ['x'],
    });
    expect(notSelect.body.errors[0]).toMatchObject({ property: 'options' });
  });

  it('are created, listed with the facilities, edited with a version and archived, all audited', async () => {
    const created = await call('POST', `${F}/additional-properties/product`, {
      label: 'Hardness',
      kind: 'quantity',
      measure: 'strength',
      helpText: 'Tablet hardness',
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({
      key: 'hardness',
      kind: 'quantity',
      measure: 'strength',
      required: false,
      archived: false,
      version: 1,
    });
    const facilities = await call('GET', `/api/v2/plans/${plan}/facilities`);
    const mine = facilities.body.facilities.find((f: { id: number }) => f.id === facility);
    expect(mine.additionalProperties.product).toEqual([created.body.result]);
    expect(mine.additionalProperties.api).toEqual([]);

    const path = `${F}/additional-properties/product/hardness`;
    const stale = await call('PUT', path, { label: 'X', reason: 'Rename', version: 7 });
    expect(stale.status).toBe(409);
    const noReason = await call('POST', path, { label: 'X', version: 1 });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');
    const edited = await call('POST', path, {
      label: 'Tablet hardness',
      reason: 'Clearer label',
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ label: 'Tablet hardness', version: 2 });
    const noArchiveReason = await call('PUT', `${path}/archive`, {});
    expect(noArchiveReason.status).toBe(422);
    const archived = await call('PUT', `${path}/archive`, { reason: 'No longer measured' });
    expect(archived.body.result).toMatchObject({
      archived: true,
      archiveReason: 'No longer measured',
      version: 3,
    });
    const list = await call('GET', `${F}/additional-properties/product`);
    expect(list.body.definitions).toEqual([archived.body.result]);
    const restored = await call('POST', path, { unArchive: true, reason: 'Measured again' });
    expect(restored.body.result).toMatchObject({ archived: false, version: 4 });

    const audit = await auditOf('product.hardness');
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive', 'Unarchive']);
    expect(audit[1]).toMatchObject({
      reason: 'Clearer label',
      old_values: { label: 'Hardness' },
      new_values: { label: 'Tablet hardness' },
    });
  });

  it('refuses bad definitions and a key used before, changing nothing', async () => {
    const bad = await call('POST', `${F}/additional-properties/production`, {
      label: '',
      kind: 'quantity',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
    expect(bad.body.errors.map((e: { property: string }) => e.property).sort()).toEqual([
      'label',
      'measure',
    ]);
    const noOptions = await call('POST', `${F}/additional-properties/production`, {
      label: 'Shift',
      kind: 'select',
    });
    expect(noOptions.body.errors[0].property).toBe('options');
    const badKey = await call('POST', `${F}/additional-properties/production`, {
      key: 'Bad Key',
      label: 'Shift',
      kind: 'text',
    });
    expect(badKey.body.errors[0].property).toBe('key');
    const badTarget = await call('POST', `${F}/additional-properties/equipment`, {
      label: 'Shift',
      kind: 'text',
    });
    expect(badTarget.status).toBe(422);
    const first = { key: 'line-shift', label: 'Shift', kind: 'text' };
    expect((await call('POST', `${F}/additional-properties/production`, first)).status).toBe(200);
    const dup = await call('POST', `${F}/additional-properties/production`, first);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'key' }],
    });
    const missing = await call('PUT', `${F}/additional-properties/production/nope`, {
      label: 'X',
      reason: 'r',
      version: 1,
    });
    expect(missing.status).toBe(404);
    const list = await call('GET', `${F}/additional-properties/production`);
    expect(list.body.definitions.map((d: { key: string }) => d.key)).toEqual(['line-shift']);
  });
});

describe('GET api-properties', () => {
  it('lists the built-in properties of an active, then the additional API ones in use', async () => {
    await call('POST', `${F}/additional-properties/api`, {
      key: 'oel',
      label: 'Occupational exposure limit',
      kind: 'quantity',
      measure: 'concentration',
    });
    await call('POST', `${F}/additional-properties/api`, {
      key: 'gone',
      label: 'Gone',
      kind: 'text',
    });
    await call('PUT', `${F}/additional-properties/api/gone/archive`, { reason: 'Unused' });
    const res = await call('GET', `${F}/api-properties`);
    expect(res.status).toBe(200);
    const keys = res.body.properties.map((p: { key: string }) => p.key);
    expect(keys.slice(0, 3)).toEqual(['name', 'externalId', 'casNumber']);
    expect(keys).toContain('acceptableIntake');
    expect(keys.at(-1)).toBe('oel');
    expect(keys).not.toContain('gone');
    const pde = res.body.properties.find((p: { key: string }) => p.key === 'pde');
    expect(pde).toMatchObject({
      kind: 'quantity',
      measure: 'pde',
      units: ['ng', 'ug', 'mg', 'g', 'kg'],
      builtIn: true,
    });
    const solubility = res.body.properties.find((p: { key: string }) => p.key === 'solubility');
    expect(solubility.options).toContain('Freely soluble');
    expect(res.body.properties.at(-1)).toMatchObject({
      builtIn: false,
      units: ['mg/ml', 'ug/ml', 'ppm'],
    });

    const user = await buildUser(server.db, { permissions: permissionsWith({ Product: ['Get'] }) });
    const as = await server.login(user.username, user.password);
    expect((await call('GET', `${F}/api-properties`, undefined, as)).status).toBe(403);
  });
});

describe('the OpenAPI document', () => {
  it('describes the additional property routes and the values on entities', async () => {
    const doc = await server.request<{
      paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>>;
    }>('GET', '/api/docs/json');
    const base = '/api/v2/plans/{plan}/facilities/{facility}';
    const paths = doc.body.paths;
    expect(paths[`${base}/additional-properties/{target}`]?.post?.summary).toContain('Define');
    expect(paths[`${base}/additional-properties/{target}/{key}`]?.put?.summary).toContain('Edit');
    expect(
      paths[`${base}/additional-properties/{target}/{key}/archive`]?.put?.summary,
    ).toBeTruthy();
    expect(paths[`${base}/api-properties`]?.get?.summary).toContain('active');
    expect(JSON.stringify(paths[`${base}/products`]?.post?.requestBody)).toContain(
      'additionalProperties',
    );
  });
});
