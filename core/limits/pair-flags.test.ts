import { describe, expect, it } from 'vitest';
import { PAIR_FLAG_TEXTS, flagSeverity } from './pair-flags.ts';

describe('flagSeverity', () => {
  it('is action for a pair with no limit, advisory for a far looser health-based limit', () => {
    expect(flagSeverity([])).toBeNull();
    expect(flagSeverity([PAIR_FLAG_TEXTS.farLooserThanTraditional])).toBe('advisory');
    expect(flagSeverity([PAIR_FLAG_TEXTS.noLimit])).toBe('action');
    expect(flagSeverity([PAIR_FLAG_TEXTS.farLooserThanTraditional, PAIR_FLAG_TEXTS.noLimit])).toBe(
      'action',
    );
  });

  it('takes a flag it does not know for one that needs action, never for advice', () => {
    expect(flagSeverity(['A flag added later'])).toBe('action');
  });
});
