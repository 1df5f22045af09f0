import { describe, expect, it } from 'vitest';
import {
  deriveEquipmentStatus,
  nextEvents,
  trainStatus,
  whyRefused,
  type LogbookEntryFacts,
  type TLogbookEvent,
} from './equipment-status.ts';

let id = 0;
const entry = (
  event: TLogbookEvent,
  at: string,
  extra: Partial<LogbookEntryFacts> = {},
): LogbookEntryFacts => ({
  id: ++id,
  event,
  at,
  productId: null,
  batch: null,
  correctsId: null,
  reason: null,
  dirtyHoldHours: null,
  cleanHoldHours: null,
  recordedBy: 1,
  ...extra,
});

const at = (iso: string) => new Date(iso);

describe('deriveEquipmentStatus', () => {
  it('takes an item with no entry as Dirty: nothing shows it clean', () => {
    const status = deriveEquipmentStatus([], at('2026-12-01T00:00:00Z'));
    expect(status).toMatchObject({ state: 'Dirty', since: null });
    expect(status.blockingReasons).toEqual(['No cleaning recorded in the logbook']);
  });

  it('follows a use, its cleaning and release, with the hold deadlines', () => {
    const first = entry('CleaningStarted', '2026-12-01T06:00:00Z');
    const firstEnd = entry('CleaningEnded', '2026-12-01T07:00:00Z', { recordedBy: 2 });
    const firstRelease = entry('Released', '2026-12-01T07:30:00Z', { recordedBy: 3 });
    const before = [first, firstEnd, firstRelease];
    const use = entry('UseStarted', '2026-12-01T08:00:00Z', { productId: 4, batch: 'B-1' });
    const ended = entry('UseEnded', '2026-12-01T16:00:00Z', { dirtyHoldHours: 24 });
    const cleaning = entry('CleaningStarted', '2026-12-02T08:00:00Z');
    const cleaned = entry('CleaningEnded', '2026-12-02T10:00:00Z', {
      cleanHoldHours: 72,
      recordedBy: 2,
    });
    const released = entry('Released', '2026-12-02T12:00:00Z', { recordedBy: 3 });
    const dirty = deriveEquipmentStatus([...before, use, ended], at('2026-12-01T17:00:00Z'));
    expect(dirty).toMatchObject({
      state: 'Dirty',
      since: ended.at,
      lastProductId: 4,
      lastBatch: 'B-1',
      dirtyHoldDueAt: '2026-12-02T16:00:00.000Z',
    });
    const overdue = deriveEquipmentStatus([...before, use, ended], at('2026-12-02T16:00:00Z'));
    expect(overdue.blockingReasons).toContain('Dirty hold exceeded at 2026-12-02T16:00:00.000Z');
    const log = [...before, use, ended, cleaning, cleaned, released];
    expect(deriveEquipmentStatus(log.slice(0, 7), at('2026-12-02T11:00:00Z'))).toMatchObject({
      state: 'CleanAwaitingRelease',
      cleanedBy: 2,
      dirtyHoldDueAt: null,
      cleanHoldExpiresAt: '2026-12-05T10:00:00.000Z',
    });
    const ok = deriveEquipmentStatus(log, at('2026-12-05T09:59:59Z'));
    expect(ok).toMatchObject({ state: 'Released', blockingReasons: [] });
    expect(whyRefused(ok, { event: 'UseStarted' })).toEqual([]);
    const expired = deriveEquipmentStatus(log, at('2026-12-05T10:00:00Z'));
    expect(expired).toMatchObject({ state: 'HoldExpired', since: '2026-12-05T10:00:00.000Z' });
    expect(whyRefused(expired, { event: 'UseStarted' })).toEqual([
      'Clean hold expired at 2026-12-05T10:00:00.000Z: clean again',
    ]);
    expect(whyRefused(expired, { event: 'CleaningStarted' })).toEqual([]);
  });

  it('voids a corrected entry, and an entry that can no longer follow moves nothing', () => {
    const cleaning = entry('CleaningStarted', '2026-12-01T08:00:00Z');
    const cleaned = entry('CleaningEnded', '2026-12-01T09:00:00Z');
    const released = entry('Released', '2026-12-01T10:00:00Z');
    const correction = entry('Correction', '2026-12-01T11:00:00Z', { correctsId: cleaned.id });
    const status = deriveEquipmentStatus(
      [cleaning, cleaned, released, correction],
      at('2026-12-01T12:00:00Z'),
    );
    expect(status).toMatchObject({ state: 'Cleaning', since: cleaning.at });
  });

  it('blocks with the reason, and an unblocked item comes back Dirty', () => {
    const blocked = entry('Blocked', '2026-12-01T08:00:00Z', { reason: 'Seal leaking' });
    const now = at('2026-12-01T09:00:00Z');
    const status = deriveEquipmentStatus([blocked], now);
    expect(status).toMatchObject({ state: 'Blocked', blockingReasons: ['Blocked: Seal leaking'] });
    expect(whyRefused(status, { event: 'CleaningStarted' })).toEqual([
      'CleaningStarted cannot follow the state Blocked',
    ]);
    const unblocked = entry('Unblocked', '2026-12-01T08:30:00Z');
    expect(deriveEquipmentStatus([blocked, unblocked], now).state).toBe('Dirty');
  });

  it('offers the events each state allows', () => {
    expect(nextEvents('Dirty')).toEqual(['CleaningStarted', 'Blocked']);
    expect(nextEvents('Released')).toEqual(['UseStarted', 'CleaningStarted', 'Blocked']);
    expect(nextEvents('Blocked')).toEqual(['Unblocked']);
  });

  it('gives a train the state of its least ready item, with the reasons of each item', () => {
    const released = { name: 'Mixer', state: 'Released' as const, blockingReasons: [] };
    const dirty = {
      name: 'Dryer',
      state: 'Dirty' as const,
      blockingReasons: ['Dirty: not cleaned'],
    };
    const inUse = { name: 'Press', state: 'InUse' as const, blockingReasons: ['In use'] };
    expect(trainStatus([released, released])).toEqual({ state: 'Released', blockingReasons: [] });
    expect(trainStatus([released, inUse])).toMatchObject({ state: 'InUse' });
    expect(trainStatus([inUse, dirty, released])).toEqual({
      state: 'Dirty',
      blockingReasons: ['Press: In use', 'Dryer: Dirty: not cleaned'],
    });
    expect(trainStatus([]).state).toBe('Dirty');
  });
});
