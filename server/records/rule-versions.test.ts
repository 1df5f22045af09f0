import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories.ts';
import { startFacilityTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let token: string;
let F: string;
beforeAll(async () => {
  ({ server, token, F } = await startFacilityTestServer());
});
afterAll(async () => {
  await server?.close();
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
const call = (method: string, path: string, body?: unknown, as = token) =>
  server.request<Body>(method, path, { token: as, ...(body === undefined ? {} : { body }) });

describe('versions of the cleaning limit policies and facility rules', () => {
  it('list each change of a limit policy, by residue type or id, as the policy read gave it', async () => {
    expect((await call('GET', `${F}/cleaning_limit_policies/Chemical/versions`)).body).toEqual({
      versions: [],
    });
    const one = await call('POST', `${F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useLd50: true,
      version: 0,
      reason: 'LD50 known',
    });
    expect(one.status).toBe(200);
    const two = await call('POST', `${F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      swabSampleLimit: 5,
      version: 1,
      reason: 'Tighter swab limit',
    });
    expect(two.status).toBe(200);
    const byType = await call('GET', `${F}/cleaning_limit_policies/chemical/versions`);
    expect(byType.status).toBe(200);
    expect(byType.body.versions.map((v: Body) => v.version)).toEqual([1, 2]);
    expect(byType.body.versions[0].values).toEqual(one.body);
    expect(byType.body.versions[1].values).toEqual(two.body);
    expect(byType.body.versions[1].recordedBy.name).toEqual(expect.any(String));
    const byId = await call('GET', `${F}/cleaning_limit_policies/${one.body.id}/versions`);
    expect(byId.body).toEqual(byType.body);
    for (const unknown of ['999999', 'Solvent', '99999999999'])
      expect((await call('GET', `${F}/cleaning_limit_policies/${unknown}/versions`)).status).toBe(
        404,
      );
  });

  it('list each change of the microbial policy and the inspection settings', async () => {
    const microbial = `${F}/microbial-cleaning-limit-policies`;
    expect((await call('GET', `${microbial}/versions`)).body).toEqual({ versions: [] });
    const changed = await call('POST', microbial, { rinseLimit: 10, version: 0, reason: 'WFI' });
    expect(changed.status).toBe(200);
    const kept = await call('GET', `${microbial}/versions`);
    expect(kept.body.versions).toHaveLength(1);
    expect(kept.body.versions[0]).toMatchObject({ version: 1, archived: false });
    expect(kept.body.versions[0].values).toEqual(changed.body);

    const inspection = `${F}/cleaning-inspection-settings`;
    const first = await call('POST', inspection, {
      dirtyHoldTimeHours: 48,
      version: 0,
      reason: 'DHT study',
    });
    const second = await call('POST', inspection, {
      dirtyHoldTimeHours: 72,
      version: 1,
      reason: 'DHT study extended',
    });
    expect(second.status).toBe(200);
    const settings = await call('GET', `${inspection}/versions`);
    expect(settings.body.versions.map((v: Body) => v.values)).toEqual([first.body, second.body]);
  });

  it('are refused without the CleaningPolicy permission', async () => {
    const user = await buildUser(server.db);
    const as = await server.login(user.username, user.password);
    for (const path of [
      'cleaning_limit_policies/Chemical/versions',
      'microbial-cleaning-limit-policies/versions',
      'cleaning-inspection-settings/versions',
    ])
      expect((await call('GET', `${F}/${path}`, undefined, as)).status, path).toBe(403);
  });
});
