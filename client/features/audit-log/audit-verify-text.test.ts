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
      verifyOutcome({ intact: true, chains: [check('plan:1', 4), check('facility:3', 20)] }, names),
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
      },
      names,
    );
    expect(outcome.title).toBe('The audit trail is broken');
    expect(outcome.lines).toEqual([
      'Entries of Oral Solid Dosage Plant: broken at entry 7: an entry was changed after it was written.',
    ]);
  });
});
