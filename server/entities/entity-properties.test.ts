import { beforeAll, describe, expect, it } from 'vitest';
import { facilityPath } from '../test/test-server.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';

const t = useFacilityTestServer();
let otherF: string;
beforeAll(async () => {
  otherF = await facilityPath(t.server, 1);
  const define = (at: string, target: string, body: object) =>
    t.call('POST', `${at}/additional-properties/${target}`, body).then((res) => {
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    });
  await define(t.F, 'production', { key: 'room', label: 'Room', kind: 'text' });
  await define(t.F, 'production', { key: 'speed', label: 'Speed', kind: 'number' });
  await define(t.F, 'production', { key: 'qualified', label: 'Qualified on', kind: 'date' });
  await define(t.F, 'production', {
    key: 'shift',
    label: 'Shift',
    kind: 'select',
    options: ['Day', 'Night'],
  });
  await define(t.F, 'production', {
    key: 'fill',
    label: 'Fill volume',
    kind: 'quantity',
    measure: 'volume',
  });
  await define(otherF, 'intermediate', { key: 'stage', label: 'Stage', kind: 'text' });
});

type Res = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are checked by the assertions

const problemsOf = (res: Res) =>
  (res.body.errors ?? []).map((e: { property: string; constraints: object }) => [
    e.property,
    Object.keys(e.constraints)[0],
  ]);

describe('additional property values on entities', () => {
  it('are stored, returned and audited field by field', async () => {
    const values = {
      room: 'B-104',
      speed: 120,
      qualified: '2026-03-01',
      shift: 'Night',
      fill: { value: 5, unit: 'ml' },
    };
    const created = await t.call('POST', `${t.F}/productions`, {
      name: 'Line with extras',
      additionalProperties: values,
    });
    expect(created.status).toBe(200);
    expect(created.body.result.additionalProperties).toEqual(values);
    const id = created.body.result.id;
    const read = await t.call('GET', `${t.F}/productions/${id}`);
    expect(read.body.additionalProperties).toEqual(values);
    const plain = await t.call('POST', `${t.F}/productions`, { name: 'Line without extras' });
    expect(plain.body.result.additionalProperties).toEqual({});

    const edited = await t.call('POST', `${t.F}/productions/${id}`, {
      additionalProperties: { speed: 150, room: null },
      reason: 'Faster line',
      version: 1,
    });
    expect(edited.status).toBe(200);
    const { room, ...rest } = values;
    expect(room).toBe('B-104');
    expect(edited.body.result.additionalProperties).toEqual({ ...rest, speed: 150 });
    const audit = await t.server.db.query<{ action: string; old_values: any; new_values: any }>( // eslint-disable-line @typescript-eslint/no-explicit-any -- jsonb
      `select action, old_values, new_values from audit_log
        where domain = 'Production' and entity_id = $1 order by id`,
      [String(id)],
    );
    expect(audit[0]!.new_values).toMatchObject({
      name: 'Line with extras',
      'additionalProperties.speed': 120,
      'additionalProperties.fill': { value: 5, unit: 'ml' },
    });
    expect(audit[1]).toMatchObject({
      action: 'Update',
      old_values: { 'additionalProperties.speed': 120, 'additionalProperties.room': 'B-104' },
      new_values: { 'additionalProperties.speed': 150, 'additionalProperties.room': null },
    });
    const same = await t.call('POST', `${t.F}/productions/${id}`, {
      additionalProperties: { speed: 150 },
      reason: 'Nothing',
      version: 2,
    });
    expect(same.body.errName).toBe('NothingToChangeError');
  });

  it('refuses unknown keys, wrong kinds and bad units with the property path, saving nothing', async () => {
    const bad = await t.call('POST', `${t.F}/productions`, {
      name: 'Bad extras',
      additionalProperties: {
        colour: 'red',
        room: 12,
        speed: 'fast',
        qualified: '2026-02-30',
        shift: 'Evening',
        fill: { value: 5, unit: 'mg' },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
    expect(problemsOf(bad)).toEqual([
      ['additionalProperties.colour', 'unknown'],
      ['additionalProperties.room', 'kind'],
      ['additionalProperties.speed', 'kind'],
      ['additionalProperties.qualified', 'kind'],
      ['additionalProperties.shift', 'kind'],
      ['additionalProperties.fill', 'kind'],
    ]);
    expect(bad.body.errors[5].constraints.kind).toBe('must be one of ml, L (volume)');
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from productions where name = 'Bad extras'`,
    );
    expect(count!.n).toBe(0);
    // An entity without definitions takes no additional properties at all.
    const equipment = await t.call('POST', `${t.F}/equipments`, {
      name: 'Tank',
      surfaceArea: { value: 1, unit: 'sqm' },
      additionalProperties: {},
    });
    expect(problemsOf(equipment)).toEqual([['additionalProperties', 'unknown']]);
  });

  it('enforces required definitions and keeps the values of archived ones read-only', async () => {
    const created = await t.call('POST', `${otherF}/intermediates`, {
      name: 'Int A',
      additionalProperties: { stage: 'Step 3' },
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    const required = await t.call('POST', `${otherF}/additional-properties/intermediate`, {
      key: 'purity',
      label: 'Purity',
      kind: 'number',
      required: true,
    });
    expect(required.status).toBe(200);
    const missing = await t.call('POST', `${otherF}/intermediates`, { name: 'Int B' });
    expect(missing.status).toBe(422);
    expect(problemsOf(missing)).toEqual([['additionalProperties.purity', 'required']]);
    const cleared = await t.call('POST', `${otherF}/intermediates/${id}`, {
      additionalProperties: { purity: 99.5 },
      reason: 'Assayed',
      version: 1,
    });
    expect(cleared.status).toBe(200);

    await t.call('PUT', `${otherF}/additional-properties/intermediate/stage/archive`, {
      reason: 'Stages are tracked elsewhere',
    });
    const read = await t.call('GET', `${otherF}/intermediates/${id}`);
    expect(read.body.additionalProperties).toEqual({ stage: 'Step 3', purity: 99.5 });
    const changeArchived = await t.call('POST', `${otherF}/intermediates/${id}`, {
      additionalProperties: { stage: 'Step 4', purity: 99.5 },
      reason: 'Next stage',
      version: 2,
    });
    expect(problemsOf(changeArchived)).toEqual([['additionalProperties.stage', 'archived']]);
    // Sending the archived value back unchanged (as a form does) is fine.
    const resend = await t.call('POST', `${otherF}/intermediates/${id}`, {
      name: 'Int A2',
      additionalProperties: { stage: 'Step 3', purity: 99.5 },
      reason: 'Rename',
      version: 2,
    });
    expect(resend.status).toBe(200);
    expect(resend.body.result.additionalProperties).toEqual({ stage: 'Step 3', purity: 99.5 });
    const stale = await t.call('POST', `${otherF}/intermediates/${id}`, {
      additionalProperties: { purity: 98 },
      reason: 'Old form',
      version: 2,
    });
    expect(stale.status).toBe(409);
  });
});
