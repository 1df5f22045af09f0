/**
 * Dates and times shown in a facility's own settings (spec §2 "Display settings", §9 formats).
 * Pure: Intl.DateTimeFormat with the facility's zone does the zone arithmetic, so the same code
 * formats in the browser, on the server and in PDF exports.
 */

export const DATE_FORMATS = [
  'MMM DD, YYYY',
  'DD-MM-YYYY',
  'MM-DD-YYYY',
  'DD MMM, YYYY',
  'DD-MMM-YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const TIME_FORMATS = ['hh:mm', 'HH:mm', 'hh:mm:ss', 'HH:mm:ss'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

export interface DateTimeSettings {
  timezone: string;
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
  /**
   * The facility's significant digits (core/units/format-number.ts), read with its date and
   * time formats because every document that shows one shows the other; 4 when absent.
   */
  significantDigits?: number;
}

export const DEFAULT_DATE_TIME_SETTINGS: DateTimeSettings = {
  timezone: 'UTC',
  dateFormat: 'DD MMM, YYYY',
  timeFormat: 'HH:mm',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// Zone names only: offsets such as '+05:30' are accepted by newer engines but are not zones
// (they ignore daylight saving), and a facility needs its real zone.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Building a formatter costs far more than using one; exports format thousands of rows. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for an IANA zone name the runtime knows (e.g. 'Europe/Dublin', 'UTC'). */
export function isValidTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(date: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    // Some engines print midnight as 24 under h23.
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function formatDatePart(c: WallClock, format: DateFormat): string {
  const dd = pad(c.day);
  const mm = pad(c.month);
  const mmm = MONTHS[c.month - 1] ?? '';
  const yyyy = pad(c.year, 4);
  switch (format) {
    case 'MMM DD, YYYY':
      return `${mmm} ${dd}, ${yyyy}`;
    case 'DD-MM-YYYY':
      return `${dd}-${mm}-${yyyy}`;
    case 'MM-DD-YYYY':
      return `${mm}-${dd}-${yyyy}`;
    case 'DD MMM, YYYY':
      return `${dd} ${mmm}, ${yyyy}`;
    case 'DD-MMM-YYYY':
      return `${dd}-${mmm}-${yyyy}`;
  }
}

/**
 * 12-hour formats carry AM/PM: '03:15' alone in an audit trail could be either, and records
 * must be legible without guessing (ALCOA+).
 */
function formatTimePart(c: WallClock, format: TimeFormat): string {
  const twelve = format.startsWith('hh');
  const hour = twelve ? c.hour % 12 || 12 : c.hour;
  const seconds = format.endsWith(':ss') ? `:${pad(c.second)}` : '';
  const suffix = twelve ? (c.hour < 12 ? ' AM' : ' PM') : '';
  return `${pad(hour)}:${pad(c.minute)}${seconds}${suffix}`;
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function zoneOf(settings: DateTimeSettings): string {
  return isValidTimeZone(settings.timezone) ? settings.timezone : 'UTC';
}

/** A moment as date and time on the facility's wall clock, e.g. '22 Nov, 2026 14:05'. */
export function formatDateTime(
  value: Date | string | number,
  settings: DateTimeSettings = DEFAULT_DATE_TIME_SETTINGS,
): string {
  const date = toDate(value);
  if (!date) return '';
  const c = wallClock(date, zoneOf(settings));
  return `${formatDatePart(c, settings.dateFormat)} ${formatTimePart(c, settings.timeFormat)}`;
}

/** The date alone, on the facility's wall clock. */
export function formatDate(
  value: Date | string | number,
  settings: DateTimeSettings = DEFAULT_DATE_TIME_SETTINGS,
): string {
  const date = toDate(value);
  if (!date) return '';
  return formatDatePart(wallClock(date, zoneOf(settings)), settings.dateFormat);
}

/**
 * A calendar day ('YYYY-MM-DD': a due date, a report's period) in the facility's date format.
 * A day has no zone: it is written as it is, never moved to another day by the zone.
 */
export function formatDay(
  day: string,
  settings: DateTimeSettings = DEFAULT_DATE_TIME_SETTINGS,
): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '';
  const [, year, month, date] = match.map(Number);
  const c = { year: year!, month: month!, day: date!, hour: 0, minute: 0, second: 0 };
  return formatDatePart(c, settings.dateFormat);
}

/** The zone's offset from UTC at a moment, in minutes (positive east of Greenwich). */
function offsetMinutes(date: Date, timeZone: string): number {
  const c = wallClock(date, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The UTC moment at which a calendar day ('YYYY-MM-DD') starts in a zone: date filters mean
 * the facility's days, not UTC's.
 */
export function startOfDayInZone(day: string, timeZone: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`Not a calendar day: ${day}`);
  return wallClockToDate(`${day}T00:00:00`, timeZone);
}

/**
 * The UTC moment a zone's wall clock 'YYYY-MM-DDTHH:mm[:ss]' names: what a user types as the
 * facility's local time. Two passes settle times at which the offset changes.
 */
export function wallClockToDate(text: string, timeZone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) throw new RangeError(`Not a wall-clock time: ${text}`);
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) ? 0 : s!);
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  let guess = asUtc - offsetMinutes(new Date(asUtc), zone) * 60_000;
  guess = asUtc - offsetMinutes(new Date(guess), zone) * 60_000;
  return new Date(guess);
}

/** A moment as a zone's wall clock 'YYYY-MM-DDTHH:mm:ss', the text wallClockToDate reads. */
export function dateToWallClock(value: Date | string | number, timeZone: string): string {
  const date = toDate(value);
  if (!date) return '';
  const c = wallClock(date, isValidTimeZone(timeZone) ? timeZone : 'UTC');
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

/** The calendar day after 'YYYY-MM-DD'. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
}
