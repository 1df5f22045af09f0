import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  choose,
  confirmWithReason,
  createViaApi,
  facilityApi,
  startSignedIn,
} from './ui.ts';

let app: AppUnderTest;
let page: Page;
let token: string;
let F: string;
let mixer: number;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  // One session per user: use the browser's for the test's own calls.
  token = await browserToken(page);
  F = (await facilityApi(app)).path;
  mixer = await createViaApi(app, token, `${F}/equipments`, {
    name: 'Mixer 7',
    surfaceArea: { value: 2, unit: 'sqm' },
  });
});
afterAll(async () => {
  await app?.close();
});

describe('equipment details', () => {
  it('adds a sampling location, assesses its risk and adds a sample', async () => {
    await page.goto(`/master-data/equipments`);
    await page.getByRole('link', { name: 'Details' }).first().click();
    await page.getByRole('heading', { name: 'Mixer 7' }).waitFor();
    await page.getByText('No sampling locations yet').waitFor();

    await page.getByRole('button', { name: 'Add sampling location' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Impeller blade');
    await confirmWithReason(page, 'New location from the risk review', 'Add location');
    await page.getByRole('cell', { name: 'Impeller blade' }).waitFor();

    await page.getByRole('button', { name: 'Assess risk' }).click();
    dialog = page.getByRole('dialog');
    await choose(dialog.getByLabel('Material at the location'), 'Other');
    // 1 × 1 × material 'Other' (5) × Direct (5) = 25: Medium.
    await dialog.getByText('Medium (25)').waitFor();
    await confirmWithReason(page, 'Initial assessment', 'Save assessment');
    await page.getByRole('cell', { name: 'Medium (25)' }).waitFor();

    await page.getByRole('button', { name: 'Expand row' }).click();
    await page.getByText('No samples yet').waitFor();
    await page.getByRole('button', { name: 'Add sample' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Sample name').fill('S-1');
    // Issue 30: the sample's own number is called so (the spec's field is batchNumber).
    await dialog.getByLabel('Sample number').fill('SN-0001');
    await confirmWithReason(page, 'Routine swab', 'Add sample');
    await page.getByRole('cell', { name: 'S-1', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'SN-0001', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Sample number' }).waitFor();
    // The sample type reads as a word in the location's and the sample's rows, never 'swab'.
    await page.getByRole('cell', { name: 'Swab', exact: true }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'swab', exact: true }).count()).toBe(0);

    const res = await app.server.request<{ data: { name: string; riskLevel: string }[] }>(
      'GET',
      `${F}/equipments/${mixer}/sampling-locations`,
      { token },
    );
    expect(res.body.data).toMatchObject([{ name: 'Impeller blade', riskLevel: 'Medium' }]);
  });

  it('edits, archives and restores a sampling location with reasons', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Impeller blade tip');
    await confirmWithReason(page, 'Location named more precisely', 'Save');
    await page.getByRole('cell', { name: 'Impeller blade tip', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Archive' }).first().click();
    await confirmWithReason(page, 'Blade replaced', 'Archive');
    await page.getByText('No sampling locations yet').waitFor();
    await page.locator('.ant-segmented').getByText('Archived locations').click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await confirmWithReason(page, 'Blade back in use', 'Restore');
    await page.getByText('No archived locations').waitFor();
    await page.locator('.ant-segmented').getByText('Sampling locations', { exact: true }).click();
    await page.getByRole('cell', { name: 'Impeller blade tip', exact: true }).waitFor();
  });

  it('adds an image with a reason and places a location on it by a click', async () => {
    await page.getByRole('tab', { name: 'Images' }).click();
    await page.getByText('No images yet').waitFor();
    // A 1 × 1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'mixer.png', mimeType: 'image/png', buffer: png });
    await confirmWithReason(page, 'Photo of the installed mixer', 'Add image');
    await page.getByRole('img', { name: 'mixer.png' }).waitFor();

    // A location placed on the picture by a click is drawn there after a reload (issue 31).
    await page.getByRole('button', { name: 'Place locations' }).click();
    await choose(page.getByLabel('Location to place'), 'Impeller blade tip');
    const picture = page.getByRole('img', { name: 'mixer.png to place locations on' });
    const box = (await picture.boundingBox())!;
    await picture.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await page.getByRole('button', { name: 'Save position' }).click();
    await confirmWithReason(page, 'Placed on the photo', 'Save position');
    await page.getByText('On this picture.').waitFor();

    await page.reload();
    await page.getByRole('tab', { name: 'Images' }).click();
    const marker = page.getByLabel('Location Impeller blade tip');
    const at = (side: 'left' | 'top') =>
      marker.evaluate((el, s) => parseFloat((el as HTMLElement).style[s]), side);
    expect(await at('left')).toBeCloseTo(25, 0);
    expect(await at('top')).toBeCloseTo(75, 0);
    const audit = await app.server.request<{
      data: { reason: string | null; newValues: Record<string, unknown> | null }[];
    }>('GET', '/api/v2/audit_logs?domains=SamplingLocation&pageLimit=50', { token });
    const row = audit.body.data.find((r) => r.reason === 'Placed on the photo');
    expect(row?.newValues).toMatchObject({ x: expect.closeTo(0.25, 2) as unknown });
  });

  it('moves a placed location by drag and keys, takes it off and removes the image', async () => {
    await page.getByRole('button', { name: 'Place locations' }).click();
    await choose(page.getByLabel('Location to place'), 'Impeller blade tip');
    // Dragged to the middle of the picture, then typed and nudged from the keyboard.
    const across = page.getByLabel('Across the picture (%)');
    const picture = page.getByRole('img', { name: 'mixer.png to place locations on' });
    // The mouse reaches only what is on screen.
    await picture.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await picture.boundingBox())!;
    const from = (await page.getByLabel('Marker of Impeller blade tip').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await across.inputValue())).toBeCloseTo(50, 0);
    await across.fill('40');
    await page.getByLabel('Down the picture (%)').fill('60');
    await page.getByLabel('Marker of Impeller blade tip').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => across.inputValue()).toBe('41');
    await page.getByRole('button', { name: 'Save position' }).click();
    await confirmWithReason(page, 'Nudged onto the blade', 'Save position');
    const L = `${F}/equipments/${mixer}/sampling-locations`;
    const located = async () =>
      (await app.server.request<{ data: { x: number | null }[] }>('GET', L, { token })).body.data[0]
        ?.x;
    await expect.poll(located).toBeCloseTo(0.41, 3);

    await page.getByRole('button', { name: 'Take off the picture' }).click();
    await confirmWithReason(page, 'Blade no longer sampled here', 'Take off');
    await page.getByText('Not placed yet.').waitFor();
    await expect.poll(located).toBeNull();
    await expect.poll(() => page.getByLabel('Location Impeller blade tip').count()).toBe(0);

    await page.getByRole('button', { name: 'Remove' }).click();
    await confirmWithReason(page, 'Wrong photo', 'Remove');
    await page.getByText('No images yet').waitFor();
  });

  it('assigns equipment to a room grade with a reason', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Room grades' })
      .click();
    await page.getByRole('heading', { name: 'Room grades' }).waitFor();
    await choose(page.getByLabel('Equipment of grade C'), 'Mixer 7');
    await page.getByRole('button', { name: 'Save grade C' }).click();
    await confirmWithReason(page, 'Mixer moved to the grade C suite', 'Save');
    await page
      .getByRole('button', { name: 'Save grade C' })
      .and(page.locator('[disabled]'))
      .waitFor();

    const res = await app.server.request<{ data: { grade: string; equipmentIds: number[] }[] }>(
      'GET',
      `${F}/room-grades`,
      { token },
    );
    expect(res.body.data.find((g) => g.grade === 'C')?.equipmentIds).toEqual([mixer]);
  });
});
