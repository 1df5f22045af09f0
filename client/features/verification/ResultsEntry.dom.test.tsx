import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ZRun, type TRun } from '#core/schemas/verification.schemas.ts';
import {
  answerDateTimeSettings,
  calls,
  fill,
  findDialog,
  renderInApp,
  signIn,
} from '#client/test/dom-harness.tsx';
import { ResultsEntry } from './ResultsEntry.tsx';

// The preview of a result's judgement while it is typed: percent of the limit after recovery,
// a value censored below the LOQ shown as a bound (never as 0), and a method whose LOQ is above
// the limit never shown as a pass (issue 26; ICH Q2(R2) on the quantitation limit).

const limitDerivation = [
  'Limit basis: equipment-wise: the lowest surface limit of Mixer over its 2 pairs',
  'Swab limit: 0.001 mg/cm² × 100 cm² = 0.1 mg/swab',
];

const plannedRow = {
  equipmentName: 'Mixer',
  riskScore: 12,
  sampleType: 'swab',
  analyticalMethodId: 3,
  limit: 0.1,
  limitUnit: 'mg/swab',
  recovery: 0.8,
  lod: null,
  detectionUnconvertible: null,
  limitDerivation,
} as const;

const run: TRun = ZRun.parse({
  id: 31,
  studyId: 4,
  studyNumber: 'CVS-0004',
  sequence: 1,
  status: 'InProgress',
  event: {},
  verdict: 'Pending',
  releaseFlag: 'CAN_NOT_BE_RELEASED',
  releaseReasons: ['Results are missing'],
  dirtyHoldMaxHours: null,
  cleanHoldMaxHours: null,
  dirtyHoldMaxSource: null,
  cleanHoldMaxSource: null,
  inspection: { settingsVersion: null, settings: null, record: null, isComplete: false },
  plan: [
    {
      ...plannedRow,
      samplingLocationId: 7,
      samplingLocationName: 'Blade',
      analyticalMethodName: 'HPLC',
      recoverySource: 'HPLC on Stainless steel 316L',
      loq: 0.01,
      methodCannotShowLimit: null,
    },
    {
      ...plannedRow,
      samplingLocationId: 8,
      samplingLocationName: 'Outlet',
      analyticalMethodName: 'UV',
      recoverySource: 'UV on Stainless steel 316L',
      loq: 0.09,
      // As the server words it (server/modules/verification/runs/run-plan.ts cannotShow).
      methodCannotShowLimit:
        'UV cannot show the limit: its LOQ 0.09 mg/swab ÷ 80 % = 0.1125 mg/swab is above the limit of 0.1 mg/swab',
    },
  ],
  results: [],
  deviations: [],
  investigations: [],
  studyClosed: false,
  controlled: { status: 'BeingBuilt', signatureState: null, versionNumber: 1, version: 2 },
  version: 2,
});

type User = ReturnType<typeof renderInApp>['user'];

const card = (location: string) => screen.getByLabelText(`Location ${location} (Swab)`);
const preview = (location: string) => within(card(location)).queryByTestId('judgement');

async function enter(user: User, location: string, censoring: string, value: string) {
  const where = `${location} (Swab)`;
  const group = screen.getByLabelText(`Censoring of ${where}`);
  await user.click(within(group).getByText(censoring));
  await fill(user, screen.getByLabelText(`Value of ${where}`), value);
}

async function chooseUnit(user: User, location: string, unit: string) {
  await user.click(screen.getByLabelText(`Unit of ${location} (Swab)`));
  const options = await screen.findAllByTitle(unit);
  await user.click(options[options.length - 1] as HTMLElement);
}

beforeEach(() => {
  signIn();
  answerDateTimeSettings();
});

describe('the result entry preview', () => {
  it('judges each value as it is typed, in the unit typed, after recovery', async () => {
    const { user } = renderInApp(<ResultsEntry run={run} canEnter onConflict={() => undefined} />);
    expect(preview('Blade')).toBeNull();

    await enter(user, 'Blade', '=', '0.09');
    // 0.09 mg/swab ÷ 0.8 = 0.1125 mg/swab, above the 0.1 mg/swab limit.
    await waitFor(() =>
      expect(preview('Blade')?.textContent).toBe('Preview: Fail 112.5 % of limit'),
    );

    await chooseUnit(user, 'Blade', 'µg/swab');
    await fill(user, screen.getByLabelText('Value of Blade (Swab)'), '40');
    // 40 µg/swab ÷ 0.8 = 50 µg/swab, half of the limit read in µg/swab.
    await waitFor(() =>
      expect(preview('Blade')?.textContent).toBe('Preview: Pass 50.0 % of limit'),
    );

    // Reported below the LOQ: only the bound is known, 20 µg/swab ÷ 0.8 = 25 % at most.
    await enter(user, 'Blade', '< LOQ', '20');
    await waitFor(() =>
      expect(preview('Blade')?.textContent).toBe('Preview: Pass ≤ 25.0 % of limit'),
    );
    // Previewing sends nothing: the server judges what is saved.
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('never shows a pass by a method whose LOQ is above the limit, and says why', async () => {
    const { user } = renderInApp(<ResultsEntry run={run} canEnter onConflict={() => undefined} />);
    const outlet = card('Outlet');
    expect(within(outlet).getByText(run.plan[1]?.methodCannotShowLimit ?? '')).toBeTruthy();

    // 0.001 mg/swab is below the method's LOQ: reported as < LOQ 0.09, which the limit cannot show.
    await enter(user, 'Outlet', '=', '0.001');
    await waitFor(() =>
      expect(preview('Outlet')?.textContent).toBe(
        'Preview: Not shown ≤ 112.5 % of limit (reported < LOQ 0.09) (method cannot show the limit)',
      ),
    );
    await user.click(within(outlet).getByRole('button', { name: 'Show derivation' }));
    const derivation = await findDialog('Derivation: Outlet (Swab)');
    expect(within(derivation).getByText(/Preview computed in the browser/)).toBeTruthy();
    expect(
      within(derivation).getByText(
        'Method not fit: LOQ 0.09 mg/swab ÷ 0.8 = 0.1125 mg/swab is above the limit 0.1 mg/swab',
      ),
    ).toBeTruthy();
    expect(
      within(derivation).getByText('Not passed: the method cannot show that the limit is met'),
    ).toBeTruthy();
  });
});

describe('an entered result', () => {
  it('shows who analysed the sample and when, as the laboratory reported them', () => {
    const analysed = ZRun.parse({
      ...run,
      results: [
        {
          id: 90,
          runId: 31,
          samplingLocationId: 7,
          samplingLocationName: 'Blade',
          equipmentId: 2,
          equipmentName: 'Mixer',
          riskScore: 12,
          sampleType: 'swab',
          analyticalMethodId: 3,
          analyticalMethodName: 'HPLC',
          analyticalMethodVersion: 1,
          batchNumber: 'LAB-77',
          censoring: '=',
          rawValue: 0.02,
          unit: 'mg/swab',
          judgement: {
            correctedValue: 0.025,
            recovery: 0.8,
            recoverySource: 'HPLC on Stainless steel 316L',
            limit: 0.1,
            percentOfLimit: 25,
            censoredBelow: false,
            passed: true,
            methodNotFit: false,
            derivation: [],
          },
          repeats: null,
          supersededBy: null,
          invalidatedBy: null,
          takenAt: '2026-11-02T09:00:00.000Z',
          analysedAt: '2026-11-03T10:30:00.000Z',
          analyst: 'A. Analyst',
          enteredAt: '2026-11-04T08:00:00.000Z',
          enteredByName: 'Import Service',
          version: 1,
        },
      ],
    });
    renderInApp(<ResultsEntry run={analysed} canEnter={false} onConflict={() => undefined} />);
    const blade = card('Blade');
    // Dublin is UTC+0 in November: the facility's wall clock is the UTC time.
    expect(within(blade).getByText('Analysed at 03 Nov, 2026 10:30')).toBeTruthy();
    expect(within(blade).getByText('Analyst A. Analyst')).toBeTruthy();
    expect(within(blade).getByText('Sampled 02 Nov, 2026 09:00')).toBeTruthy();
  });
});
