import { describe, expect, it } from 'vitest';
import { NO_CHANGES, applyTicks, hasChanges, toggleTick } from './tick-draft.ts';

describe('tick drafts', () => {
  it('records ticks as changes to the saved list', () => {
    let changes = toggleTick([1, 2], NO_CHANGES, 3, true);
    changes = toggleTick([1, 2], changes, 1, false);
    expect(changes).toEqual({ added: [3], removed: [1] });
    expect(applyTicks([1, 2], changes)).toEqual([2, 3]);
    expect(hasChanges([1, 2], changes)).toBe(true);
  });

  it('undoing a tick leaves nothing to save', () => {
    const changes = toggleTick([1], toggleTick([1], NO_CHANGES, 2, true), 2, false);
    expect(hasChanges([1], changes)).toBe(false);
  });

  it('applies the same changes on top of a list someone else changed', () => {
    const changes = toggleTick([1], NO_CHANGES, 2, true);
    // Meanwhile another user added 5 and removed 1.
    expect(applyTicks([5], changes)).toEqual([5, 2]);
    // Another user made the same change: nothing is left to save.
    expect(hasChanges([1, 2], changes)).toBe(false);
  });
});
