import { describe, expect, it } from 'vitest';
import { chainName, verifyOutcome } from './audit-verify-text.ts';

const names = new Map([[3, 'Oral Solid Dosage Plant']]);
const check = (chain: string, rows: number, broken?: { seq: number; problem: string }) => ({
  chain,
  rows,
  intact: !broken,
  brokenSeq: broken?.seq ?? null,
  problem: broken?.problem ?? null,
  head: null,
  anchor: null,
});

describe('the audit trail verification in words', () => {
  it('names chains by facility, never by their keys', () => {
    expect(chainName('facility:3', names)).toBe('Entries of Oral Solid Dosage Plant');
    expect(chainName('plan:1', names)).toBe('Plan-wide entries');
    expect(chainName('facility:9', names)).toBe('Entries of another facility');
  });

  it('says the trail is intact, with how many entries were checked', () => {
    expect(
      verifyOutcome(
        {
          intact: true,
          chains: [check('plan:1', 4), check('facility:3', 20)],
          signatures: { checked: 0, invalid: [] },
          records: { broken: [] },
        },
        names,
      ),
    ).toEqual({
      intact: true,
      title: 'The audit trail is intact',
      lines: ['24 entries checked; none was changed, removed or inserted.'],
    });
  });

  it('says where a chain breaks and what that means', () => {
    const outcome = verifyOutcome(
      {
        intact: false,
        chains: [check('plan:1', 4), check('facility:3', 20, { seq: 7, problem: 'hash' })],
        signatures: { checked: 0, invalid: [] },
        records: { broken: [] },
      },
      names,
    );
    expect(outcome.title).toBe('The audit trail is broken');
    expect(outcome.lines).toEqual([
      'Entries of Oral Solid Dosage Plant: broken at entry 7: an entry was changed after it was written.',
    ]);
  });

  it('names each signature that is not valid, and why', () => {
    const outcome = verifyOutcome(
      {
        intact: false,
        chains: [check('facility:3', 20)],
        signatures: {
          checked: 3,
          invalid: [
            { id: 8, documentType: 'SOP', documentId: 4, versionNumber: 1, problem: 'mac' },
            {
              id: 9,
              documentType: 'SOP',
              documentId: 4,
              versionNumber: 1,
              problem: 'no_chain_entry',
            },
          ],
        },
        records: { broken: [] },
      },
      names,
    );
    expect(outcome.lines).toEqual([
      'Signature 8 of SOP 4, version 1: not valid: it does not match its seal in the audit trail.',
      'Signature 9 of SOP 4, version 1: not valid: it is not in the audit trail (written by other means than signing).',
    ]);
  });

  it('names each approved record whose integrity is broken, and why', () => {
    const outcome = verifyOutcome(
      {
        intact: false,
        chains: [check('facility:3', 20)],
        signatures: { checked: 2, invalid: [] },
        records: {
          broken: [
            {
              documentType: 'SOP',
              documentId: 4,
              versionNumber: 2,
              reason: 'The approved content differs from what was signed',
            },
          ],
        },
      },
      names,
    );
    expect(outcome.title).toBe('Approved records were changed outside the application');
    expect(outcome.lines).toEqual([
      'SOP 4, version 2: integrity broken: The approved content differs from what was signed. Do not rely on it until QA has investigated.',
    ]);
  });

  it('counts the signatures checked when all are valid', () => {
    const outcome = verifyOutcome(
      {
        intact: true,
        chains: [check('facility:3', 2)],
        signatures: { checked: 1, invalid: [] },
        records: { broken: [] },
      },
      names,
    );
    expect(outcome.lines).toEqual([
      '2 entries checked; none was changed, removed or inserted.',
      '1 electronic signature checked; all valid.',
    ]);
  });
});
