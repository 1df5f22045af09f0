import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { equipmentDef } from '#core/entities/defs/index.ts';
import { editSchema, recordSchema } from '#core/entities/entity.ts';
import { AppError } from '#core/errors/errors.ts';
import { emptyPermissionMap, fullPermissionMap } from '#core/permissions/permission-map.ts';
import {
  F,
  answer,
  callsTo,
  fill,
  findDialog,
  renderInApp,
  signIn,
} from '#client/test/dom-harness.tsx';
import type { EntityRecord } from './entity-api.ts';
import { EntityFormDrawer } from './EntityFormDrawer.tsx';

// Optimistic locking of master data (EU GMP Annex 11 §12.4: a change is made knowingly): an edit
// made from an old version is refused with 409 VersionConflictError, and the drawer reloads the
// record without losing what the user typed, so the change is applied again to what is current.

const PATH = `${F}/equipments/5`;

const opened = recordSchema(equipmentDef).parse({
  id: 5,
  facilityId: 2,
  name: 'Mixer M-01',
  externalId: 'EQ-1',
  surfaceArea: { value: 2.5, unit: 'sqm' },
  material: 'Stainless steel 316L',
  roomGrade: 'C',
  version: 3,
  createdAt: '2026-01-10T08:00:00.000Z',
  updatedAt: '2026-01-10T08:00:00.000Z',
  archivedAt: null,
  archiveReason: null,
}) as EntityRecord;

/**
 * The equipment route as the record store answers it: an edit from another version than the
 * stored one is a conflict; otherwise the changes are applied and the version moves on.
 */
function answerEquipment(stored: EntityRecord) {
  let current = stored;
  answer('GET', PATH, () => current);
  answer('POST', PATH, ({ body }) => {
    const { reason: _reason, version, ...changes } = editSchema(equipmentDef).parse(body);
    if (version !== current.version) throw new AppError('VersionConflictError');
    current = { ...current, ...changes, version: current.version + 1 };
    return { result: current };
  });
}

async function saveWithReason(user: ReturnType<typeof renderInApp>['user'], reason: string) {
  await user.click(screen.getByRole('button', { name: 'Save' }));
  const dialog = await findDialog('Why are you changing this equipment?');
  expect(within(dialog).getByText('Changed: External ID')).toBeTruthy();
  await fill(user, within(dialog).getByLabelText('Reason'), reason);
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
}

beforeEach(() => {
  signIn();
  // The drawer names its record as the app does, with the user's permissions at hand.
  answer('GET', `${F}/UAM/permissions`, () => ({
    facility: fullPermissionMap(),
    plan: emptyPermissionMap(),
    isRestricted: false,
  }));
});

describe('the record drawer', () => {
  it('on a version conflict keeps what was typed, reloads the current record and saves onto it', async () => {
    // Someone else renamed the mixer and corrected its area since the drawer opened version 3.
    answerEquipment({
      ...opened,
      name: 'Mixer M-01 (line 2)',
      surfaceArea: { value: 3, unit: 'sqm' },
      version: 4,
    });
    const onClose = vi.fn();
    const { user } = renderInApp(
      <EntityFormDrawer def={equipmentDef} record={opened} onClose={onClose} />,
    );
    const externalId = screen.getByLabelText('External ID');
    await fill(user, externalId, 'EQ-1-B');
    await saveWithReason(user, 'New asset tag');

    const conflict = await screen.findByRole('alert');
    expect(within(conflict).getByText('Changed by someone else')).toBeTruthy();
    expect(within(conflict).getByText(/Your entries are kept/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(externalId).toHaveProperty('value', 'EQ-1-B');
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Mixer M-01');

    await user.click(within(conflict).getByRole('button', { name: 'Reload current values' }));
    expect(await screen.findByText('Reloaded version 4')).toBeTruthy();
    expect(
      screen.getByText(
        'Your changes to External ID are kept on top of the current values. Check them and save again.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Mixer M-01 (line 2)');
    expect(externalId).toHaveProperty('value', 'EQ-1-B');

    await saveWithReason(user, 'New asset tag');
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    // Each save sends only the user's own change, from the version the form then showed.
    expect(callsTo('POST', PATH).map((call) => call.body)).toEqual([
      { externalId: 'EQ-1-B', reason: 'New asset tag', version: 3 },
      { externalId: 'EQ-1-B', reason: 'New asset tag', version: 4 },
    ]);
  });

  it('says there is nothing to save when nothing was changed, and sends nothing', async () => {
    answerEquipment(opened);
    const { user } = renderInApp(
      <EntityFormDrawer def={equipmentDef} record={opened} onClose={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to change')).toBeTruthy();
    expect(screen.queryByText('Why are you changing this equipment?')).toBeNull();
    expect(callsTo('POST', PATH)).toHaveLength(0);
  });
});
