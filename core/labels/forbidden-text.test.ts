import { describe, expect, it } from 'vitest';
import { CODE_WORDS, findForbiddenText } from './forbidden-text.ts';
import {
  DOCUMENT_TYPE_LABELS,
  LIMIT_BASIS_LABELS,
  STATISTICS_ALERT_LABELS,
} from './enum-labels.ts';
import { STATUS_LABELS } from '../records/status-labels.ts';

describe('the codes no screen or report may show', () => {
  it('come from core: enum values, label map keys, audit domains and actions', () => {
    for (const code of [
      'BeingApproved',
      'ChangeAssessment',
      'equipmentWise',
      'productWise',
      'aboveAction',
      'ppuBelowTarget',
      'AnalyticalMethod',
      'QualificationTask',
      'sampleResults',
      'CAN_BE_RELEASED',
    ])
      expect(CODE_WORDS, code).toContain(code);
    // Words and abbreviations are not codes.
    for (const word of ['Approved', 'swab', 'SOP', 'pH', 'mg/sqcm'])
      expect(CODE_WORDS).not.toContain(word);
  });

  it.each([
    ['Status: BeingApproved', 'code BeingApproved'],
    ['Analytical methods (spec §3: TOC, pH)', 'specification reference'],
    ['Report document #6 · Update', 'record id'],
    ['Above action on 2026-03-01T10:00:00.000Z', 'ISO timestamp'],
    ['Values: {"name":"Aspirin"}', 'raw JSON'],
    ['See docs/sso-setup.md', 'source path'],
    ['1records', 'number glued to a word'],
    ['Limit 6.114e-5 mg', 'e-notation'],
    ['Batch size 1e+21 kg', 'e-notation'],
    ['Limit 0.0003057018765353721 mg/swab', 'unrounded number'],
    ['Batch size 2005.9999999999998 kg', 'unrounded number'],
  ])('finds %j', (text, rule) => {
    expect(findForbiddenText(text).map((f) => f.rule)).toContain(rule);
  });

  it.each([
    'Status: Being approved · Change assessment',
    'Batch B-2026-01, page 3 of 12, taken 05/12/2026 10:00',
    'Limit 0.0003 mg/swab; Above action level; Equipment-wise',
    'Redirect address https://carryover.example/api/v2/auth/sso/azure/verify',
    'Limit 0.00000001234 mg/cm², 79,100 cm², 1.2345678 µg at 8 significant digits',
    'Percent of limit: 210.522454092374 (the audit trail’s 15 digits)',
    'SHA-256 3e1f0c9a27d4b8e5, batch 2E10-04, version 1.2.3',
    'Job deeff8dc-6e45-456f-93f2-fb9ff975833a',
    'Page 1 of 4 · Data 591218e80644 DRAFT',
    'Formula maco_10ppm = 0.00001*MBS_kg*1e6/max_dose',
    'PDE 0.0208333333333333 mg/day (15 significant digits)',
  ])('passes words: %j', (text) => {
    expect(findForbiddenText(text)).toEqual([]);
  });

  it('every label of the maps is words', () => {
    const labels = [
      ...Object.values(STATUS_LABELS),
      ...Object.values(DOCUMENT_TYPE_LABELS),
      ...Object.values(LIMIT_BASIS_LABELS),
      ...Object.values(STATISTICS_ALERT_LABELS),
    ];
    for (const label of labels) expect(findForbiddenText(label), label).toEqual([]);
  });
});
