import { screen } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';
import { ZFromLastResponse } from '#core/schemas/cleaning-assessments.schemas.ts';
import {
  answer,
  answerDateTimeSettings,
  F,
  renderInApp,
  signIn,
} from '#client/test/dom-harness.tsx';
import { ChangesSinceTable } from './ChangesSinceTable.tsx';

// The changes since an assessment come from the audit trail, whose areas and actions are codes:
// the browser walk of every screen (e2e/words.test.ts) found 'AnalyticalMethod' here whenever
// such a change was on the first page, which depended on the demo story's timing.

const change = (domain: string, action: string, entityName: string) => ({
  at: '2026-12-07T06:50:46.323Z',
  userName: 'Vera Engineer',
  domain,
  action,
  entityId: '4',
  entityName,
  reason: null,
  changeAssessment: null,
});

beforeEach(() => {
  signIn();
  answerDateTimeSettings();
});

it('names each change’s area and action in words, not the audit trail’s codes', async () => {
  answer('GET', `${F}/cleaning-assessments/from-last`, () =>
    ZFromLastResponse.parse({
      since: null,
      priorId: null,
      changes: [
        change('AnalyticalMethod', 'Create', 'TOC direct swab method'),
        change('SamplingLocation', 'Create', 'Lid gasket'),
        change('ElectronicSignature', 'SignatureRefused', 'Protocol of Line 1'),
      ],
      total: 3,
    }),
  );
  renderInApp(<ChangesSinceTable />);
  expect(await screen.findByText('TOC direct swab method')).toBeTruthy();
  expect(screen.getByText('Analytical method')).toBeTruthy();
  expect(screen.getByText('Sampling location')).toBeTruthy();
  expect(screen.getByText('Signature refused')).toBeTruthy();
  expect(forbiddenTextReport('changes since', document.body.innerText ?? '')).toBe('');
  expect(document.body.textContent).not.toMatch(
    /AnalyticalMethod|SamplingLocation|SignatureRefused/,
  );
});
