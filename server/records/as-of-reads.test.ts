import { describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '../test/facility-test-file.ts';
import { adminEditor, changePolicyInForce, putInForce } from '../test/policy-in-force.ts';

const t = useFacilityTestServer();

/** The database's clock now, then a pause, so that later commits are strictly after it. */
async function moment(): Promise<string> {
  const [row] = await t.server.db.query<{ now: string }>(
    `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
  );
  await t.server.db.query('select pg_sleep(0.002)');
  return row!.now;
}

const at = (asOf: string) => `asOf=${encodeURIComponent(asOf)}`;

describe('controlled records read as of a moment', () => {
  it('give a policy’s content and status as they were, while a new version is being built', async () => {
    const editor = adminEditor(t.token);
    await changePolicyInForce(
      t.server,
      t.F,
      'cleaning_limit_policies',
      { residueType: 'Chemical', swabSampleLimit: 4, reason: 'Tighter swab limit' },
      editor,
    );
    const inForce = await t.call('GET', `${t.F}/cleaning_limit_policies/chemical`);
    expect(inForce.body.status).toBe('Approved');
    const then = await moment();
    const draft = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      swabSampleLimit: 2,
      version: inForce.body.version,
      reason: 'Proposed tighter limit',
    });
    expect(draft.status).toBe(200);
    expect(draft.body.status).toBe('BeingBuilt');
    expect(draft.body.versionNumber).toBe(inForce.body.versionNumber + 1);

    const asThen = await t.call('GET', `${t.F}/cleaning_limit_policies/chemical?${at(then)}`);
    expect(asThen.status).toBe(200);
    expect(asThen.body).toEqual(inForce.body);
    const list = await t.call('GET', `${t.F}/cleaning_limit_policies?${at(then)}`);
    const chemical = list.body.policies.find((p: Body) => p.residueType === 'Chemical');
    expect(chemical).toEqual(inForce.body);
    // Now: the plain read answers the version in force, the draft read the one being built.
    const now = await t.call('GET', `${t.F}/cleaning_limit_policies/chemical`);
    expect(now.body).toMatchObject({ status: 'Approved', policy: { swabSampleLimit: 4 } });
    const draftNow = await t.call('GET', `${t.F}/cleaning_limit_policies/chemical?version=draft`);
    expect(draftNow.body).toMatchObject({ status: 'BeingBuilt', policy: { swabSampleLimit: 2 } });
  });

  it('give the inspection settings as they were', async () => {
    const before = await t.call('GET', `${t.F}/cleaning-inspection-settings`);
    const then = await moment();
    const edited = await t.call('POST', `${t.F}/cleaning-inspection-settings`, {
      minimumLightLux: 750,
      version: before.body.version,
      reason: 'Brighter inspection light',
    });
    expect(edited.status).toBe(200);
    const asThen = await t.call('GET', `${t.F}/cleaning-inspection-settings?${at(then)}`);
    expect(asThen.body).toEqual(before.body);
    const bad = await t.call('GET', `${t.F}/cleaning-inspection-settings?asOf=yesterday`);
    expect(bad.status).toBe(422);
  });

  it('give an SOP’s status as it was: Active then, Being Built now', async () => {
    const created = await t.call('POST', `${t.F}/sop`, {
      sopNumber: 'SOP-ASOF-1',
      name: 'Cleaning of the blender',
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id as number;
    await putInForce(t.server, t.F, adminEditor(t.token), 'SOP', id);
    const active = await t.call('GET', `${t.F}/sop/${id}`);
    expect(active.body.status).toBe('Approved');
    const then = await moment();
    const edit = await t.call('POST', `${t.F}/sop/${id}`, {
      name: 'Cleaning of the blender and its lid',
      version: active.body.version,
      reason: 'Lid added',
    });
    expect(edit.status).toBe(200);
    expect(edit.body.result.status).toBe('BeingBuilt');

    const asThen = await t.call('GET', `${t.F}/sop/${id}?${at(then)}`);
    expect(asThen.body).toEqual(active.body);
    const listThen = await t.call('GET', `${t.F}/sop?search=SOP-ASOF&${at(then)}`);
    const row = Object.values(listThen.body)
      .find(Array.isArray)
      ?.find((r: Body) => r.id === id);
    expect(row).toMatchObject({ status: 'Approved', versionNumber: 1 });
  });
});
