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
/** A read without the state of the controlled versions, which a kept row does not hold. */
const fieldsOf = ({ status: _s, signatureState: _g, versionNumber: _n, ...fields }: Body) => fields;

describe('versions of the cleaning limit policies and facility rules', () => {
  it('list each change of a limit policy, by residue type or id, as the policy read gave it', async () => {
    // Every facility starts from its defaults, stored with the facility.
    const start = await call('GET', `${F}/cleaning_limit_policies/Chemical`);
    expect((await call('GET', `${F}/cleaning_limit_policies/Chemical/versions`)).body).toEqual({
      versions: [expect.objectContaining({ version: 1, values: fieldsOf(start.body) })],
    });
    const one = await call('POST', `${F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useLd50: true,
      version: 1,
      reason: 'LD50 known',
    });
    expect(one.status).toBe(200);
    const two = await call('POST', `${F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      swabSampleLimit: 5,
      version: 2,
      reason: 'Tighter swab limit',
    });
    expect(two.status).toBe(200);
    const byType = await call('GET', `${F}/cleaning_limit_policies/chemical/versions`);
    expect(byType.status).toBe(200);
    expect(byType.body.versions.map((v: Body) => v.version)).toEqual([1, 2, 3]);
    expect(byType.body.versions[1].values).toEqual(fieldsOf(one.body));
    expect(byType.body.versions[2].values).toEqual(fieldsOf(two.body));
    expect(byType.body.versions[2].recordedBy.name).toEqual(expect.any(String));
    const byId = await call('GET', `${F}/cleaning_limit_policies/${one.body.id}/versions`);
    expect(byId.body).toEqual(byType.body);
    const [microbialRow] = await server.db.query<{ id: number }>(
      `select id from cleaning_limit_policies where residue_type = 'Microbial' limit 1`,
    );
    for (const unknown of ['999999', 'Solvent', '99999999999', String(microbialRow!.id)])
      expect((await call('GET', `${F}/cleaning_limit_policies/${unknown}/versions`)).status).toBe(
        404,
      );
  });

  it('list each change of the microbial policy and the inspection settings', async () => {
    const microbial = `${F}/microbial-cleaning-limit-policies`;
    const defaults = await call('GET', microbial);
    expect((await call('GET', `${microbial}/versions`)).body.versions).toEqual([
      expect.objectContaining({ version: 1, values: fieldsOf(defaults.body) }),
    ]);
    const changed = await call('POST', microbial, { rinseLimit: 10, version: 1, reason: 'WFI' });
    expect(changed.status).toBe(200);
    const kept = await call('GET', `${microbial}/versions`);
    expect(kept.body.versions).toHaveLength(2);
    expect(kept.body.versions[1]).toMatchObject({ version: 2, archived: false });
    expect(kept.body.versions[1].values).toEqual(fieldsOf(changed.body));

    const inspection = `${F}/cleaning-inspection-settings`;
    const start = await call('GET', inspection);
    const first = await call('POST', inspection, {
      dirtyHoldTimeHours: 48,
      version: 1,
      reason: 'DHT study',
    });
    const second = await call('POST', inspection, {
      dirtyHoldTimeHours: 72,
      version: 2,
      reason: 'DHT study extended',
    });
    expect(second.status).toBe(200);
    const settings = await call('GET', `${inspection}/versions`);
    expect(settings.body.versions.map((v: Body) => v.values)).toEqual(
      [start.body, first.body, second.body].map(fieldsOf),
    );
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
