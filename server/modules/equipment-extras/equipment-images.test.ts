import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let equipmentId: number;
beforeAll(async () => {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name: 'Fluid bed dryer',
    surfaceArea: { value: 3, unit: 'sqm' },
  });
  equipmentId = res.body.result.id;
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR fake image body'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF body')]);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

describe('equipment images', () => {
  it('are refused without the Equipment permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const path = `${t.F}/equipments/${equipmentId}/images`;
    expect((await t.call('GET', path, undefined, as)).status).toBe(200);
    const refused = await t.call(
      'POST',
      path,
      { imageData: dataUrl('image/png', PNG), reason: 'Photo' },
      as,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errName).toBe('NotAllowed');
  });

  it('are added with a reason, listed, and removed with a reason while the record is kept', async () => {
    const path = `${t.F}/equipments/${equipmentId}/images`;
    const added = await t.call('POST', path, {
      imageData: dataUrl('image/png', PNG),
      name: 'Front',
      reason: 'As installed',
    });
    expect(added.status).toBe(200);
    expect(added.body.result).toMatchObject({
      equipmentId,
      name: 'Front',
      mimeType: 'image/png',
      sizeBytes: PNG.length,
      imageData: dataUrl('image/png', PNG),
    });
    const jpeg = await t.call('POST', path, {
      imageData: dataUrl('image/jpeg', JPEG),
      reason: 'Side',
    });
    expect(jpeg.body.result.mimeType).toBe('image/jpeg');
    expect((await t.call('GET', path)).body.data.map((i: Body) => i.name)).toEqual(['Front', null]);

    const id = added.body.result.id;
    expect((await t.call('DELETE', `${path}/${id}`, {})).status).toBe(422);
    const removed = await t.call('DELETE', `${path}/${id}`, { reason: 'Blurred' });
    expect(removed.status).toBe(200);
    expect((await t.call('GET', path)).body.data).toHaveLength(1);
    expect((await t.call('DELETE', `${path}/${id}`, { reason: 'again' })).status).toBe(404);
    const [kept] = await t.server.db.query<Body>(
      'select delete_reason, deleted_at is not null as deleted from equipment_images where id = $1',
      [id],
    );
    expect(kept).toEqual({ delete_reason: 'Blurred', deleted: true });
    const audit = await t.server.db.query<Body>(
      `select action, reason from audit_log where domain = 'EquipmentImage' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(audit).toEqual([
      { action: 'Create', reason: 'As installed' },
      { action: 'Delete', reason: 'Blurred' },
    ]);
  });

  it('refuse what is not a PNG or JPEG data URL, or not what it claims', async () => {
    const path = `${t.F}/equipments/${equipmentId}/images`;
    const gif = await t.call('POST', path, {
      imageData: `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}`,
      reason: 'x',
    });
    expect(gif.status).toBe(422);
    expect(gif.body.errors[0].property).toBe('imageData');
    const disguised = await t.call('POST', path, {
      imageData: dataUrl('image/png', Buffer.from('%PDF-1.7 not an image')),
      reason: 'x',
    });
    expect(disguised.status).toBe(422);
    expect(disguised.body.errors[0]).toMatchObject({
      property: 'imageData',
      constraints: { image: 'is neither a PNG nor a JPEG image' },
    });
    const mislabelled = await t.call('POST', path, {
      imageData: dataUrl('image/png', JPEG),
      reason: 'x',
    });
    expect(mislabelled.body.errors[0].constraints.image).toContain('image/jpeg');
    const noReason = await t.call('POST', path, { imageData: dataUrl('image/png', PNG) });
    expect(noReason.body.errors[0].property).toBe('reason');
    const tooBig = await t.call('POST', path, {
      imageData: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)])),
      reason: 'x',
    });
    expect(tooBig.status).toBe(422);
    expect((await t.call('GET', `${t.F}/equipments/999999/images`)).status).toBe(404);
  });

  it('are not added to archived equipment', async () => {
    const res = await t.call('POST', `${t.F}/equipments`, {
      name: 'Old mill',
      surfaceArea: { value: 1, unit: 'sqm' },
    });
    const id = res.body.result.id;
    await t.call('PUT', `${t.F}/equipments/${id}/archive`, { reason: 'Scrapped' });
    const refused = await t.call('POST', `${t.F}/equipments/${id}/images`, {
      imageData: dataUrl('image/png', PNG),
      reason: 'x',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errName).toBe('ArchivedEntryError');
  });
});
