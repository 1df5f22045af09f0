import { describe, expect, it } from 'vitest';
import type { ContractPair } from '#core/limits/contract-output.ts';
import { explainPair } from './pair-explanation.ts';

const mg = (value: number) => ({ value, unit: 'mg' as const });
const base: ContractPair = {
  previous: 'A',
  next: 'B',
  sharedEquipment: ['E1', 'E3'],
  area: { value: 210000, unit: 'sqcm' },
  criteria: { health: mg(83.3333), dose: mg(120), ld50: null, arl: mg(1000) },
  governing: 'health',
  governingActive: 'a1',
  maco: mg(83.3333),
  sal: { value: 0.000396825, unit: 'mg/sqcm' },
  salCapped: false,
};

describe('explainPair', () => {
  it('lists every criterion with its value and marks the one that governs', () => {
    const explanation = explainPair(base);
    expect(explanation.criteria.map((c) => [c.key, c.value?.value ?? null, c.isGoverning])).toEqual(
      [
        ['health', 83.3333, true],
        ['dose', 120, false],
        ['ld50', null, false],
        ['arl', 1000, false],
      ],
    );
    expect(explanation.rule).toBe('lowest');
    expect(explanation.ruleText).toContain('lowest of the 3 available criteria');
    expect(explanation.ruleText).toContain('active a1');
  });

  it('recomputes SAL = MACO / area from the document', () => {
    expect(explainPair(base).salFromMaco).toBeCloseTo(0.000396825, 9);
  });

  it('recognises the first available criterion when a later one is lower', () => {
    const firstAvailable = {
      ...base,
      criteria: { health: mg(500), dose: mg(120), ld50: null, arl: mg(1000) },
      maco: mg(500),
    };
    const explanation = explainPair(firstAvailable);
    expect(explanation.rule).toBe('first-available');
    expect(explanation.ruleText).toContain('first available criterion');
  });

  it('says when a criterion is the only one available', () => {
    const only = {
      ...base,
      criteria: { health: null, dose: null, ld50: null, arl: mg(1000) },
      governing: 'arl',
      maco: mg(1000),
    };
    expect(explainPair(only).ruleText).toContain('only criterion available');
  });

  it('explains a pair without any criterion', () => {
    const none = {
      ...base,
      criteria: { health: null, dose: null, ld50: null, arl: null },
      governing: null,
      governingActive: null,
      maco: null,
      sal: null,
    };
    const explanation = explainPair(none);
    expect(explanation.rule).toBe('none');
    expect(explanation.salFromMaco).toBeNull();
  });
});
