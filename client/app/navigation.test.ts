import { describe, expect, it } from 'vitest';
import { visibleNavigation } from './navigation.ts';

describe('navigation while permissions load', () => {
  it('offers only the entries that need no permission', () => {
    expect(visibleNavigation(undefined).map((entry) => entry.path)).toEqual(['/']);
  });
});
