import { beforeAll, describe, expect, it } from 'vitest';
import { auditChangeLines, auditSubject } from '#core/audit/audit-format.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

/*
 * Issue 31: a sampling location placed on a picture of its equipment (imageId, x, y as fractions
 * of the picture), over HTTP on a real database.
 */

const t = useFacilityTestServer();
/** A 1 × 1 PNG. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

let L: string;
let own: number;
let other: number;

async function equipmentWithImage(name: string) {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name,
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.result.id as number;
  const image = await t.call('POST', `${t.F}/equipments/${id}/images`, {
    imageData: PNG,
    name: 'Front',
    reason: 'As installed',
  });
  expect(image.status, JSON.stringify(image.body)).toBe(200);
  return { id, imageId: image.body.result.id as number };
}

beforeAll(async () => {
  const mixer = await equipmentWithImage('Mixer P1');
  const press = await equipmentWithImage('Press P2');
  L = `${t.F}/equipments/${mixer.id}/sampling-locations`;
  own = mixer.imageId;
  other = press.imageId;
});

const add = (data: Record<string, unknown>) =>
  t.call('POST', L, { data: { sampleType: 'swab', ...data }, reason: 'Placed on the picture' });

describe('sampling location positions', () => {
  it('are kept on a picture of the location’s own equipment, and moved with an edit', async () => {
    const placed = await add({ name: 'Paddle tip', imageId: own, x: 0.25, y: 1 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const location = placed.body.result[0];
    expect(location).toMatchObject({ imageId: own, x: 0.25, y: 1 });
    const moved = await t.call('PUT', `${L}/${location.id}`, {
      data: { x: 0, y: 0.5 },
      reason: 'Moved to the rim',
      version: location.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.result).toMatchObject({ imageId: own, x: 0, y: 0.5 });
    const audit = await t.server.db.query<{ new_values: Record<string, unknown> }>(
      `select new_values from audit_log where domain = 'SamplingLocation' and entity_id = $1
        order by id desc limit 1`,
      [String(location.id)],
    );
    expect(audit[0]?.new_values).toMatchObject({ x: 0 });
  });

  it('refuses a picture of other equipment, a part of a position, or x or y outside 0 to 1', async () => {
    const foreign = await add({ name: 'Foreign', imageId: other, x: 0.5, y: 0.5 });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].property).toContain('imageId');
    // The picture is named as a person knows it, never by its id (issue 30).
    expect(JSON.stringify(foreign.body.errors)).not.toContain(String(other));
    const unknown = await add({ name: 'Unknown', imageId: 99_999_999, x: 0.5, y: 0.5 });
    expect(unknown.status).toBe(422);
    const partial = await add({ name: 'Partial', imageId: own, x: 0.5 });
    expect(partial.status).toBe(422);
    expect(partial.body.errors[0].property).toContain('y');
    for (const [x, y] of [
      [1.5, 0.5],
      [0.5, -0.1],
    ]) {
      const outside = await add({ name: `Outside ${x} ${y}`, imageId: own, x, y });
      expect([400, 422]).toContain(outside.status);
    }
    const names = (await t.call('GET', L)).body.data.map((l: { name: string }) => l.name);
    expect(names).toEqual(['Paddle tip']);
  });

  it('are named in the audit trail by the picture’s name, never its id (issue 30)', async () => {
    const placed = await add({ name: 'Lid seal', imageId: own, x: 0.5, y: 0.5 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const rows = await t.server.db.query<{
      domain: string;
      entity_id: string | null;
      old_values: Record<string, unknown> | null;
      new_values: Record<string, unknown> | null;
    }>(
      `select domain, entity_id, old_values, new_values from audit_log
        where (domain = 'SamplingLocation' and entity_id = $1)
           or (domain = 'EquipmentImage' and entity_id = $2)
        order by id`,
      [String(placed.body.result[0].id), String(own)],
    );
    const audit = rows.map((r) => ({
      domain: r.domain,
      entityId: r.entity_id,
      oldValues: r.old_values,
      newValues: r.new_values,
    }));
    const names = await auditNames(t.server.db, t.planId, audit);
    const format = { names, formatDateTime: (iso: string) => iso };
    const [image, location] = audit;
    expect(auditSubject(image!, names)).toBe('Equipment picture ‘Front’');
    expect(auditChangeLines(location!, format)).toContain('Equipment picture: Front');
    expect(auditChangeLines(location!, format).join('\n')).not.toContain(`: ${own}`);
  });
});
