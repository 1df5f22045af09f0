import { describe, expect, it } from 'vitest';
import {
  filledResults,
  previewJudgement,
  rowFieldErrors,
  rowKey,
  type PlanRow,
} from './result-rows.ts';

const row: PlanRow = {
  samplingLocationId: 7,
  samplingLocationName: 'Blade',
  equipmentName: 'Mixer',
  riskScore: 12,
  sampleType: 'swab',
  analyticalMethodId: 3,
  analyticalMethodName: 'HPLC',
  limit: 0.1,
  limitUnit: 'mg/swab',
  recovery: 0.8,
  recoverySource: 'HPLC on Stainless steel 316L',
  loq: null,
  lod: null,
  detectionUnconvertible: null,
  methodCannotShowLimit: null,
  limitDerivation: [
    'Limit basis: equipment-wise: the lowest surface limit of Mixer over its 2 pairs',
    'Lowest surface limit (SAL): 0.001 mg/cm², pair A → B',
    'Swab limit: 0.001 mg/cm² × 100 cm² = 0.1 mg/swab (no recovery: the result is divided by it instead)',
  ],
};

describe('previewJudgement', () => {
  it('never passes a value its method cannot see, as the server judges it', () => {
    // LOQ 0.09 mg/swab ÷ 0.8 = 0.1125 mg/swab > 0.1: 20 ug/swab is reported < LOQ, not passed
    const judged = previewJudgement(
      { ...row, loq: 0.09 },
      { censoring: '=', rawValue: 20, unit: 'ug/swab' },
    );
    expect(judged).toMatchObject({ passed: false, methodNotFit: true, reportedCensoring: '< LOQ' });
    // A swab LOQ that the server could not express per swab: not fit whatever the value
    const unconvertible = previewJudgement(
      { ...row, detectionUnconvertible: 'its LOQ of 5 ppm cannot be expressed per swab' },
      { censoring: '=', rawValue: 1, unit: 'ug/swab' },
    );
    expect(unconvertible).toMatchObject({ passed: false, methodNotFit: true });
  });
  it('passes a value under the limit, converting the limit to the entered unit', () => {
    // 40 ug/swab ÷ 0.8 = 50 ug/swab = 0.05 mg/swab, 50 % of 0.1 mg/swab
    const judged = previewJudgement(row, { censoring: '=', rawValue: 40, unit: 'ug/swab' });
    expect(judged?.passed).toBe(true);
    expect(judged?.percentOfLimit).toBeCloseTo(50);
  });
  it('divides by the recovery the server will use: 0.09 mg/swab ÷ 0.8 fails', () => {
    // 0.09 / 0.8 = 0.1125 mg/swab > 0.1 mg/swab
    const judged = previewJudgement(row, { censoring: '=', rawValue: 0.09, unit: 'mg/swab' });
    expect(judged?.passed).toBe(false);
    expect(judged?.percentOfLimit).toBeCloseTo(112.5);
  });
  it('fails a value above the limit and an upper-limit censored value', () => {
    expect(previewJudgement(row, { censoring: '=', rawValue: 0.2, unit: 'mg/swab' })?.passed).toBe(
      false,
    );
    expect(
      previewJudgement(row, { censoring: '> upper limit', rawValue: 0.01, unit: 'mg/swab' })
        ?.passed,
    ).toBe(false);
  });
  it('leads its derivation with how the limit came from the snapshot, as the server does', () => {
    const judged = previewJudgement(row, { censoring: '=', rawValue: 40, unit: 'ug/swab' });
    expect(judged?.derivation.slice(0, 4)).toEqual([
      ...row.limitDerivation,
      'In µg/swab: 100 µg/swab',
    ]);
    expect(judged?.derivation[4]).toBe('Reported: 40 µg/swab');
    const same = previewJudgement(row, { censoring: '=', rawValue: 0.04, unit: 'mg/swab' });
    expect(same?.derivation.slice(0, 4)).toEqual([
      ...row.limitDerivation,
      'Reported: 0.04 mg/swab',
    ]);
  });
  it('gives no preview without a value or with a unit of the other kind', () => {
    expect(previewJudgement(row, { censoring: '=', unit: 'mg/swab' })).toBeNull();
    expect(previewJudgement(row, { censoring: '=', rawValue: 1, unit: 'mg/ml' })).toBeNull();
  });
});

describe('filledResults and rowFieldErrors', () => {
  it('posts only filled rows, keyed so the server can name their problems', () => {
    const key = rowKey(row);
    expect(key).toBe('loc7-swab');
    const body = filledResults([row], {
      [key]: { censoring: '< LOQ', rawValue: 0.01, unit: 'mg/swab', batchNumber: ' B1 ' },
    });
    expect(body).toEqual([
      {
        key,
        samplingLocationId: 7,
        sampleType: 'swab',
        analyticalMethodId: 3,
        censoring: '< LOQ',
        rawValue: 0.01,
        unit: 'mg/swab',
        batchNumber: 'B1',
      },
    ]);
    expect(filledResults([row], { [key]: { censoring: '=' } })).toEqual([]);
  });
  it("maps '<key>.<field>' onto the row's field and keeps the rest apart", () => {
    const mapped = rowFieldErrors(
      [
        {
          property: 'loc7-swab.batchNumber',
          constraints: { unique: 'Batch number must be unique across samples' },
        },
        { property: 'loc9-rinse.unit', constraints: { kind: 'Wrong unit' } },
        { property: 'loc7-swab', constraints: { taken: 'A result was entered meanwhile' } },
        { property: 'results', constraints: { min: 'Enter at least one result' } },
      ],
      [row],
    );
    expect(mapped.fields).toEqual([
      {
        name: ['rows', 'loc7-swab', 'batchNumber'],
        errors: ['Batch number must be unique across samples'],
      },
    ]);
    expect(mapped.rest).toEqual([
      "Rinse at a location no longer in this run's plan, unit: Wrong unit",
      'Swab at Blade (Mixer): A result was entered meanwhile',
      'Results: Enter at least one result',
    ]);
  });
});
