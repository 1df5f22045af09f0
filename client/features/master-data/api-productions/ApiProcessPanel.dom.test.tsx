import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  apiProcessStepsDef,
  apiProductionsDef,
  apiStepSubstancesDef,
} from '#core/entities/defs/index.ts';
import { recordSchema, type EntityDef } from '#core/entities/entity.ts';
import { emptyPermissionMap, fullPermissionMap } from '#core/permissions/permission-map.ts';
import { answer, F, renderInApp, signIn } from '#client/test/dom-harness.tsx';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { ApiProcessPanel } from './ApiProcessPanel.tsx';

// An API production's page (issue 32): its steps in process order with the equipment each runs
// on and the substances present, and a step added from it names the production and the next number.

const stamp = {
  facilityId: 2,
  version: 1,
  createdAt: '2026-01-10T08:00:00.000Z',
  updatedAt: '2026-01-10T08:00:00.000Z',
  archivedAt: null,
  archiveReason: null,
};
const record = (def: EntityDef, values: Record<string, unknown>) =>
  recordSchema(def).parse({ ...stamp, ...values }) as EntityRecord;
const page = (data: unknown[]) => ({ data, total: data.length, pageNumber: 1, pageLimit: 1000 });

const production = record(apiProductionsDef, { id: 7, name: 'Metformin route A', activeId: 1 });
const reaction = record(apiProcessStepsDef, {
  id: 21,
  apiProductionId: 7,
  stepNumber: 1,
  name: 'Reaction',
  equipmentIds: [11],
});
const adductAtReaction = record(apiStepSubstancesDef, {
  id: 31,
  apiProductionId: 7,
  stepId: 21,
  intermediateId: 3,
});

function answerFacility(steps: EntityRecord[], substances: EntityRecord[]) {
  answer('GET', `${F}/UAM/permissions`, () => ({
    facility: fullPermissionMap(),
    plan: emptyPermissionMap(),
    isRestricted: false,
  }));
  answer('GET', `${F}/api-equipment`, () => page(steps));
  answer('GET', `${F}/api-products`, () => page(substances));
  answer('GET', `${F}/equipments`, () =>
    page([
      { ...stamp, id: 11, name: 'R-101 reactor' },
      { ...stamp, id: 12, name: 'D-201 dryer' },
    ]),
  );
  answer('GET', `${F}/apis`, () => page([{ ...stamp, id: 1, name: 'Metformin HCl' }]));
  // Intermediates are listed under the spec's own key.
  answer('GET', `${F}/intermediates`, () => {
    const { data, ...rest } = page([{ ...stamp, id: 3, name: 'Cyanoguanidine adduct' }]);
    return { ...rest, intermediates: data };
  });
  answer('GET', `${F}/api-productions`, () => page([production]));
}

beforeEach(() => signIn());

describe('the process steps of an API production', () => {
  it('lists its steps in order with their equipment and substances', async () => {
    answerFacility(
      [
        record(apiProcessStepsDef, {
          id: 22,
          apiProductionId: 7,
          stepNumber: 2,
          name: 'Drying',
          equipmentIds: [12],
        }),
        reaction,
        record(apiProcessStepsDef, {
          id: 29,
          apiProductionId: 8,
          stepNumber: 1,
          name: 'Another process',
          equipmentIds: [11],
        }),
      ],
      [
        adductAtReaction,
        record(apiStepSubstancesDef, { id: 32, apiProductionId: 7, stepId: 22, activeId: 1 }),
      ],
    );
    const { user } = renderInApp(<ApiProcessPanel production={production} />);
    await screen.findByText('Reaction');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('1ReactionR-101 reactor'),
      expect.stringContaining('2DryingD-201 dryer'),
    ]);
    expect(await within(rows[0]!).findByText('Cyanoguanidine adduct')).toBeTruthy();
    expect(await within(rows[1]!).findByText('Metformin HCl')).toBeTruthy();
    expect(screen.queryByText('Another process')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add step 3' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByLabelText('Step')).toHaveProperty('value', '3');
    expect(await within(drawer).findByText('Metformin route A')).toBeTruthy();
  });

  it('names a substance’s drawer by its active or intermediate, not its id', async () => {
    answerFacility(
      [reaction],
      [
        adductAtReaction,
        record(apiStepSubstancesDef, { id: 32, apiProductionId: 7, stepId: 21, activeId: 1 }),
      ],
    );
    const { user } = renderInApp(<ApiProcessPanel production={production} />);
    await user.click(await screen.findByText('Cyanoguanidine adduct'));
    const drawer = await screen.findByRole('dialog');
    expect(
      await within(drawer).findByText("Edit API step substance 'Cyanoguanidine adduct'"),
    ).toBeTruthy();
    expect(within(drawer).queryByText(/'31'/)).toBeNull();
  });

  it('shows where to begin when the process has no steps yet', async () => {
    answerFacility([], []);
    renderInApp(<ApiProcessPanel production={production} />);
    expect(await screen.findByText(/No process steps yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add the first step' })).toBeTruthy();
  });
});
