import { describe, expect, it } from 'vitest';
import { recordLink } from './record-links.ts';

describe('recordLink', () => {
  it('opens a declared controlled entity in its list with the record open', () => {
    expect(recordLink('SOP', 12)).toBe('/master-data/sop?record=12');
    expect(recordLink('DocumentVersion', 3)).toBe('/master-data/document-version?record=3');
  });

  it('opens the policies on their screen, and nothing for types without one yet', () => {
    expect(recordLink('CleaningLimitPolicy', 1)).toBe('/policies?policy=1');
    expect(recordLink('CleaningInspectionSettings', 2)).toBe('/policies?tab=inspection');
    expect(recordLink('AnnualSummary', 2)).toBeNull();
  });

  it('opens the assessments of issue 11 on their screens', () => {
    expect(recordLink('CleaningAssessment', 4)).toBe('/cleaning-assessments/4');
    expect(recordLink('ChangeAssessment', 9)).toBe('/change-control/9');
  });

  it('opens protocols, studies and runs of issue 12 on their screens', () => {
    expect(recordLink('Protocol', 5)).toBe('/protocols?record=5');
    expect(recordLink('Study', 6)).toBe('/studies/6');
    expect(recordLink('Run', 7)).toBe('/runs/7');
  });
});
