import { describe, expect, it } from 'vitest';
import {
  INSPECTION_SETTINGS_DEFAULTS,
  type TInspectionSettings,
} from '../schemas/facility-rules.schemas.ts';
import { inspectionProblems, type InspectionAnswers } from './inspection.ts';

const settings: TInspectionSettings = {
  ...INSPECTION_SETTINGS_DEFAULTS,
  minimumLightLux: 500,
  checklist: [
    { item: 'No visible residue', isMandatory: true },
    { item: 'Labelled', isMandatory: false },
  ],
};
const passing: InspectionAnswers = {
  lightLux: 800,
  checklist: [{ answer: 'Pass' }, { answer: 'N/A' }],
  result: 'Pass',
  notes: null,
};

describe('inspectionProblems', () => {
  it.each<[string, Partial<InspectionAnswers>, Partial<TInspectionSettings>, string[]]>([
    ['a complete pass', {}, {}, []],
    ['light exactly at the minimum passes', { lightLux: 500 }, {}, []],
    ['a pass in too little light', { lightLux: 499 }, {}, ['lightLux']],
    [
      'a fail in too little light stands (residue seen is residue)',
      { lightLux: 100, result: 'Fail', notes: 'Film on the valve' },
      {},
      [],
    ],
    [
      'a mandatory item N/A',
      { checklist: [{ answer: 'N/A' }, { answer: 'Pass' }] },
      {},
      ['checklist[0].answer'],
    ],
    [
      'a pass with a mandatory item failed',
      { checklist: [{ answer: 'Fail' }, { answer: 'Pass' }] },
      {},
      ['checklist[0].answer'],
    ],
    [
      'a pass with an optional item failed',
      { checklist: [{ answer: 'Pass' }, { answer: 'Fail' }] },
      {},
      [],
    ],
    [
      'a fail with a mandatory item failed and notes',
      { checklist: [{ answer: 'Fail' }, { answer: 'Pass' }], result: 'Fail', notes: 'Residue' },
      {},
      [],
    ],
    ['a fail without notes', { result: 'Fail', notes: '  ' }, {}, ['notes']],
    ['answers missing', { checklist: [{ answer: 'Pass' }] }, {}, ['checklist']],
    [
      'photo evidence required and missing',
      {},
      { requirePhotoEvidence: true },
      ['evidenceReference'],
    ],
    [
      'photo evidence required and given',
      { evidenceReference: 'DMS-PH-0042' },
      { requirePhotoEvidence: true },
      [],
    ],
  ])('%s', (_name, change, settingsChange, properties) => {
    const problems = inspectionProblems(
      { ...settings, ...settingsChange },
      { ...passing, ...change },
    );
    expect(problems.map((p) => p.property)).toEqual(properties);
  });
});
