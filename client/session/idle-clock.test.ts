import { beforeEach, describe, expect, it } from 'vitest';
import { idleState, noteServerCall, storeIdleTimeout } from './idle-clock.ts';
import { memoryStorage } from './memory-storage.ts';

const { storage, entries: store } = memoryStorage();
globalThis.localStorage = storage;

const T = 1_700_000_000_000;

describe('idle clock', () => {
  beforeEach(() => store.clear());

  it('knows nothing before the server told the timeout', () => {
    noteServerCall(1000);
    expect(idleState(2000)).toEqual({ msLeft: null, isWarning: false });
  });

  it('warns three minutes before a 30-minute timeout, counting 30 s of server slack', () => {
    storeIdleTimeout(30 * 60);
    noteServerCall(T);
    const end = T + 30 * 60_000 - 30_000;
    expect(idleState(end - 3 * 60_000 - 1)).toMatchObject({ isWarning: false });
    expect(idleState(end - 3 * 60_000)).toEqual({ msLeft: 3 * 60_000, isWarning: true });
    expect(idleState(end + 1).msLeft).toBeLessThan(0);
  });

  it('warns in the last quarter of a one-minute timeout', () => {
    storeIdleTimeout(60);
    noteServerCall(T);
    expect(idleState(T + 20_000)).toMatchObject({ msLeft: 10_000, isWarning: false });
    expect(idleState(T + 23_000)).toMatchObject({ isWarning: true });
  });
});
