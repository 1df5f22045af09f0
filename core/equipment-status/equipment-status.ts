/*
 * The state of an equipment item derived from its cleaning and use log (issue 31). One pure
 * function from the entries, their pinned hold times and the clock: every screen, the production
 * hold and the release read it, so the state has one source. 21 CFR 211.67 (equipment cleaned
 * and maintained at appropriate intervals, before use), 211.182 (the cleaning and use log), EU GMP
 * Annex 15 §10.10–10.12 (dirty and clean hold times established by validation).
 */

export const LOGBOOK_EVENTS = [
  'UseStarted',
  'UseEnded',
  'CleaningStarted',
  'CleaningEnded',
  'Released',
  'Blocked',
  'Unblocked',
  'Correction',
] as const;
export type TLogbookEvent = (typeof LOGBOOK_EVENTS)[number];

export const EQUIPMENT_STATES = [
  'InUse',
  'Dirty',
  'Cleaning',
  'CleanAwaitingRelease',
  'Released',
  'HoldExpired',
  'Blocked',
] as const;
export type TEquipmentState = (typeof EQUIPMENT_STATES)[number];

/** What the derivation reads of one entry. `at` is when it happened (ISO). */
export interface LogbookEntryFacts {
  id: number;
  event: TLogbookEvent;
  at: string;
  productId: number | null;
  batch: string | null;
  correctsId: number | null;
  reason: string | null;
  /** Pinned when the use ended (dirty) or the cleaning ended (clean); null: no hold limit. */
  dirtyHoldHours: number | null;
  cleanHoldHours: number | null;
  recordedBy: number;
}

export interface EquipmentStatus {
  state: TEquipmentState;
  /** When the item entered its state; null for an item with no entry yet. */
  since: string | null;
  lastProductId: number | null;
  lastBatch: string | null;
  dirtyHoldDueAt: string | null;
  cleanHoldExpiresAt: string | null;
  blockingReasons: string[];
  /** Who recorded the CleaningEnded of the current cleaning (separation of duties). */
  cleanedBy: number | null;
}

const HOUR_MS = 3_600_000;
const plusHours = (at: string, hours: number | null) =>
  hours === null ? null : new Date(Date.parse(at) + hours * HOUR_MS).toISOString();

/** The entries that count: neither a correction itself nor an entry a correction voided. */
export function standingEntries<T extends LogbookEntryFacts>(entries: readonly T[]): T[] {
  const voided = new Set(entries.filter((e) => e.correctsId !== null).map((e) => e.correctsId));
  return entries.filter((e) => e.event !== 'Correction' && !voided.has(e.id));
}

/** The fold's state: the status without its reasons, and why the item was blocked. */
type Walk = Omit<EquipmentStatus, 'blockingReasons'> & { blockReason: string | null };

/** The state an entry moves to from `w`, once `allowedFrom` has let it follow. */
function step(w: Walk, e: LogbookEntryFacts): Walk {
  switch (e.event) {
    case 'UseStarted':
      return {
        ...w,
        state: 'InUse',
        since: e.at,
        lastProductId: e.productId,
        lastBatch: e.batch,
        dirtyHoldDueAt: null,
        cleanHoldExpiresAt: null,
        cleanedBy: null,
      };
    case 'UseEnded':
      return {
        ...w,
        state: 'Dirty',
        since: e.at,
        dirtyHoldDueAt: plusHours(e.at, e.dirtyHoldHours),
        cleanHoldExpiresAt: null,
        cleanedBy: null,
      };
    case 'CleaningStarted':
      return { ...w, state: 'Cleaning', since: e.at, cleanHoldExpiresAt: null, cleanedBy: null };
    case 'CleaningEnded':
      return {
        ...w,
        state: 'CleanAwaitingRelease',
        since: e.at,
        dirtyHoldDueAt: null,
        cleanHoldExpiresAt: plusHours(e.at, e.cleanHoldHours),
        cleanedBy: e.recordedBy,
      };
    case 'Released':
      return { ...w, state: 'Released', since: e.at };
    case 'Blocked':
      return { ...w, state: 'Blocked', since: e.at, blockReason: e.reason };
    case 'Unblocked':
      // Whatever happened to a blocked item is unknown: it comes back Dirty and is cleaned and
      // released again before any use (21 CFR 211.67(b)(5): inspection for cleanliness before use).
      return {
        ...w,
        state: 'Dirty',
        since: e.at,
        dirtyHoldDueAt: null,
        cleanHoldExpiresAt: null,
        cleanedBy: null,
        blockReason: null,
      };
    case 'Correction':
      return w;
  }
}

/** A clean item whose clean hold has passed by `atMs` is HoldExpired from its expiry on. */
function settle(w: Walk, atMs: number): Walk {
  const clean = w.state === 'Released' || w.state === 'CleanAwaitingRelease';
  if (!clean || w.cleanHoldExpiresAt === null || Date.parse(w.cleanHoldExpiresAt) > atMs) return w;
  return { ...w, state: 'HoldExpired', since: w.cleanHoldExpiresAt };
}

const INITIAL: Walk = {
  state: 'Dirty',
  since: null,
  lastProductId: null,
  lastBatch: null,
  dirtyHoldDueAt: null,
  cleanHoldExpiresAt: null,
  cleanedBy: null,
  blockReason: null,
};

const FROM: Record<Exclude<TLogbookEvent, 'Correction'>, readonly TEquipmentState[]> = {
  UseStarted: ['Released'],
  UseEnded: ['InUse'],
  // A clean item may be cleaned again (before its hold runs out); an item in use ends its use first.
  CleaningStarted: ['Dirty', 'HoldExpired', 'CleanAwaitingRelease', 'Released'],
  CleaningEnded: ['Cleaning'],
  Released: ['CleanAwaitingRelease'],
  Blocked: ['InUse', 'Dirty', 'Cleaning', 'CleanAwaitingRelease', 'Released', 'HoldExpired'],
  Unblocked: ['Blocked'],
};

const allowedFrom = (state: TEquipmentState, event: TLogbookEvent) =>
  event !== 'Correction' && FROM[event].includes(state);

/** The events that may follow the state (a correction aside), as a screen offers them. */
export const nextEvents = (state: TEquipmentState): TLogbookEvent[] =>
  LOGBOOK_EVENTS.filter((event) => allowedFrom(state, event));

/**
 * What the entries make of the item before the clock is read: the same whenever it is read, so
 * it may be kept beside the log (keyed by the last entry it folded) and settled at each read.
 * An entry that could not follow the state it met (one whose predecessor a correction voided)
 * moves nothing unless it shows the item less clean than its state (provesUnclean), so no
 * correction can make an item Released that was not released after its last cleaning and use.
 */
export type LogbookFold = Walk;

export function foldLogbook(entries: readonly LogbookEntryFacts[]): LogbookFold {
  return standingEntries(entries).reduce((w, e) => {
    const at = settle(w, Date.parse(e.at));
    return allowedFrom(at.state, e.event) || provesUnclean(at.state, e.event) ? step(at, e) : at;
  }, INITIAL);
}

/**
 * An entry that could not follow its state (its predecessor voided) still counts when ignoring
 * it would leave the item more usable than the log shows: a use that ended makes any unblocked
 * item Dirty, and a cleaning that ended after a release needs a release of its own (21 CFR
 * 211.67(b)(5), inspection for cleanliness before use; EU GMP Annex 15 §10). Found by the
 * property test: Released, a cleaning whose start was voided, its end standing, stayed Released.
 */
function provesUnclean(state: TEquipmentState, event: TLogbookEvent): boolean {
  if (event === 'UseEnded') return state !== 'Blocked' && state !== 'Dirty';
  if (event === 'CleaningEnded') return state === 'Released' || state === 'InUse';
  return false;
}

/**
 * The item's state at `now` from its fold. An item with no entry is Dirty: nothing shows it
 * clean. A clean item (awaiting release or released) whose clean hold has passed is HoldExpired
 * and must be cleaned again; a Dirty item past its dirty hold stays Dirty with the overrun as a
 * reason.
 */
export function statusAt(
  fold: LogbookFold,
  now: Date,
  formatMoment: MomentFormat = (iso) => iso,
): EquipmentStatus {
  const w = settle(fold, now.getTime());
  return {
    state: w.state,
    since: w.since,
    lastProductId: w.lastProductId,
    lastBatch: w.lastBatch,
    dirtyHoldDueAt: w.dirtyHoldDueAt,
    cleanHoldExpiresAt: w.cleanHoldExpiresAt,
    blockingReasons: blockingReasons(w, now.getTime(), formatMoment),
    cleanedBy: w.cleanedBy,
  };
}

/** The item's state at `now`, from its whole log. */
export function deriveEquipmentStatus(
  entries: readonly LogbookEntryFacts[],
  now: Date,
  formatMoment?: MomentFormat,
): EquipmentStatus {
  return statusAt(foldLogbook(entries), now, formatMoment);
}

/**
 * A moment as a reason names it to people: the server passes the facility's zone and formats
 * (issue 30: never an ISO timestamp on screen).
 */
export type MomentFormat = (iso: string) => string;

/** Why the item may not be used now (empty only when Released within its clean hold). */
function blockingReasons(w: Walk, nowMs: number, formatMoment: MomentFormat): string[] {
  switch (w.state) {
    case 'Released':
      return [];
    case 'InUse':
      return ['In use: the use must end and the item be cleaned and released'];
    case 'Dirty': {
      const overdue = w.dirtyHoldDueAt !== null && Date.parse(w.dirtyHoldDueAt) <= nowMs;
      return [
        w.since === null ? 'No cleaning recorded in the logbook' : 'Dirty: not cleaned',
        ...(overdue ? [`Dirty hold exceeded at ${formatMoment(w.dirtyHoldDueAt!)}`] : []),
      ];
    }
    case 'Cleaning':
      return ['Cleaning in progress'];
    case 'CleanAwaitingRelease':
      return ['Clean, awaiting release'];
    case 'HoldExpired':
      return [
        w.cleanHoldExpiresAt === null
          ? 'Clean hold expired: clean again'
          : `Clean hold expired at ${formatMoment(w.cleanHoldExpiresAt)}: clean again`,
      ];
    case 'Blocked':
      return [w.blockReason ? `Blocked: ${w.blockReason}` : 'Blocked'];
  }
}

/** What a new entry asks for, as far as the state machine judges it. */
export interface EntryRequest {
  event: TLogbookEvent;
}

/**
 * Why the entry may not follow the item's state (empty: it may). The production hold: a use
 * starts only on a Released item within its clean hold (21 CFR 211.67; Annex 15 §10.12).
 */
export function whyRefused(status: EquipmentStatus, request: EntryRequest): string[] {
  if (request.event === 'Correction' || allowedFrom(status.state, request.event)) return [];
  if (request.event === 'UseStarted') return status.blockingReasons;
  if (request.event === 'Released' && status.state === 'HoldExpired') return status.blockingReasons;
  return [`${request.event} cannot follow the state ${status.state}`];
}

/** The order of readiness: a train is as far from use as its least ready item. */
const READINESS: readonly TEquipmentState[] = [
  'Blocked',
  'HoldExpired',
  'Dirty',
  'Cleaning',
  'CleanAwaitingRelease',
  'InUse',
  'Released',
];

/**
 * The state of a train (a production's equipment) from its items': the least ready of them, and
 * every item's reason named by the item. A train is Released only when every item is; with no
 * item it has nothing to use and is Dirty.
 */
export function trainStatus(
  members: readonly { name: string; state: TEquipmentState; blockingReasons: readonly string[] }[],
): { state: TEquipmentState; blockingReasons: string[] } {
  if (members.length === 0)
    return { state: 'Dirty', blockingReasons: ['No equipment in the train'] };
  const rank = (state: TEquipmentState) => READINESS.indexOf(state);
  const state = members.reduce<TEquipmentState>(
    (worst, m) => (rank(m.state) < rank(worst) ? m.state : worst),
    'Released',
  );
  return {
    state,
    blockingReasons: members.flatMap((m) => m.blockingReasons.map((r) => `${m.name}: ${r}`)),
  };
}
