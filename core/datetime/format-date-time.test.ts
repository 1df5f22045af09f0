import { describe, expect, it } from 'vitest';
import {
  DATE_FORMATS,
  dateToWallClock,
  formatDate,
  formatDateTime,
  formatDay,
  isValidTimeZone,
  nextDay,
  startOfDayInZone,
  TIME_FORMATS,
  wallClockToDate,
  type DateFormat,
  type TimeFormat,
} from './format-date-time.ts';

// 2026-03-05T21:07:09Z: in Kolkata (UTC+05:30) it is already 6 March, 02:37:09.
const MOMENT = '2026-03-05T21:07:09Z';

describe('formatDateTime', () => {
  it.each<[DateFormat, string]>([
    ['MMM DD, YYYY', 'Mar 06, 2026'],
    ['DD-MM-YYYY', '06-03-2026'],
    ['MM-DD-YYYY', '03-06-2026'],
    ['DD MMM, YYYY', '06 Mar, 2026'],
    ['DD-MMM-YYYY', '06-Mar-2026'],
  ])('writes the date as %s on the zone’s calendar', (dateFormat, expected) => {
    expect(formatDate(MOMENT, { timezone: 'Asia/Kolkata', dateFormat, timeFormat: 'HH:mm' })).toBe(
      expected,
    );
  });

  it.each<[TimeFormat, string, string]>([
    ['HH:mm', '02:37', '21:07'],
    ['HH:mm:ss', '02:37:09', '21:07:09'],
    ['hh:mm', '02:37 AM', '09:07 PM'],
    ['hh:mm:ss', '02:37:09 AM', '09:07:09 PM'],
  ])('writes the time as %s', (timeFormat, kolkata, utc) => {
    expect(
      formatDateTime(MOMENT, { timezone: 'Asia/Kolkata', dateFormat: 'DD-MM-YYYY', timeFormat }),
    ).toBe(`06-03-2026 ${kolkata}`);
    expect(formatDateTime(MOMENT, { timezone: 'UTC', dateFormat: 'DD-MM-YYYY', timeFormat })).toBe(
      `05-03-2026 ${utc}`,
    );
  });

  it('uses the defaults of spec §9 and shows midnight and noon in 12-hour time as 12', () => {
    expect(formatDateTime('2026-11-22T00:05:00Z')).toBe('22 Nov, 2026 00:05');
    const twelve = { timezone: 'UTC', dateFormat: 'DD MMM, YYYY', timeFormat: 'hh:mm' } as const;
    expect(formatDateTime('2026-11-22T00:05:00Z', twelve)).toBe('22 Nov, 2026 12:05 AM');
    expect(formatDateTime('2026-11-22T12:05:00Z', twelve)).toBe('22 Nov, 2026 12:05 PM');
  });

  it('follows daylight saving of the zone', () => {
    const ny = {
      timezone: 'America/New_York',
      dateFormat: 'DD-MM-YYYY',
      timeFormat: 'HH:mm',
    } as const;
    expect(formatDateTime('2026-01-15T12:00:00Z', ny)).toBe('15-01-2026 07:00');
    expect(formatDateTime('2026-07-15T12:00:00Z', ny)).toBe('15-07-2026 08:00');
  });

  it('shows nothing for an invalid date and falls back to UTC for an unknown zone', () => {
    expect(formatDateTime('not a date')).toBe('');
    expect(
      formatDateTime(MOMENT, {
        timezone: 'Mars/Base',
        dateFormat: 'DD-MM-YYYY',
        timeFormat: 'HH:mm',
      }),
    ).toBe('05-03-2026 21:07');
  });

  it('lists exactly the formats of spec §9', () => {
    expect(DATE_FORMATS).toHaveLength(5);
    expect(TIME_FORMATS).toEqual(['hh:mm', 'HH:mm', 'hh:mm:ss', 'HH:mm:ss']);
  });
});

describe('formatDay', () => {
  it('writes a calendar day in the facility’s format, on no zone’s clock', () => {
    // West of Greenwich, midnight UTC of 6 March is still 5 March: a day must not move.
    const west = { timezone: 'America/New_York', timeFormat: 'HH:mm' } as const;
    expect(formatDay('2026-03-06', { ...west, dateFormat: 'DD MMM, YYYY' })).toBe('06 Mar, 2026');
    expect(formatDay('2026-03-06', { ...west, dateFormat: 'MM-DD-YYYY' })).toBe('03-06-2026');
    expect(formatDay('2026-12-31')).toBe('31 Dec, 2026');
    expect(formatDay('not a day')).toBe('');
  });
});

describe('isValidTimeZone', () => {
  it.each(['UTC', 'Europe/Dublin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata'])(
    'accepts %s',
    (zone) => expect(isValidTimeZone(zone)).toBe(true),
  );
  it.each(['', 'Mars/Base', '+05:30', 'Europe/', '../etc/passwd', 'UTC; drop table'])(
    'refuses %j',
    (zone) => expect(isValidTimeZone(zone)).toBe(false),
  );
});

describe('startOfDayInZone', () => {
  it('finds the UTC moment a facility day starts, across offsets and daylight saving', () => {
    expect(startOfDayInZone('2026-03-06', 'UTC').toISOString()).toBe('2026-03-06T00:00:00.000Z');
    expect(startOfDayInZone('2026-03-06', 'Asia/Kolkata').toISOString()).toBe(
      '2026-03-05T18:30:00.000Z',
    );
    expect(startOfDayInZone('2026-07-01', 'America/New_York').toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
    // Clocks go forward in New York on 8 March 2026; the day still starts at 05:00 UTC.
    expect(startOfDayInZone('2026-03-08', 'America/New_York').toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
  });

  it('counts days across month and year ends', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });
});

describe('wallClockToDate and dateToWallClock', () => {
  it.each([
    ['2026-03-06T02:37:09', 'Asia/Kolkata', '2026-03-05T21:07:09.000Z'],
    ['2026-03-06T02:37', 'Asia/Kolkata', '2026-03-05T21:07:00.000Z'],
    ['2026-11-28T10:15', 'UTC', '2026-11-28T10:15:00.000Z'],
    ['2026-07-01T09:00', 'Europe/Dublin', '2026-07-01T08:00:00.000Z'],
    // 03:30 on 8 March 2026 in New York is after the clocks went forward (UTC-4).
    ['2026-03-08T03:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['2026-03-08T01:30', 'America/New_York', '2026-03-08T06:30:00.000Z'],
  ])('reads %s in %s as %s, and writes it back', (text, zone, iso) => {
    expect(wallClockToDate(text, zone).toISOString()).toBe(iso);
    expect(dateToWallClock(iso, zone)).toBe(text.length === 16 ? `${text}:00` : text);
  });

  it('refuses what is not a wall-clock time', () => {
    expect(() => wallClockToDate('28-11-2026 10:15', 'UTC')).toThrow(RangeError);
    expect(dateToWallClock('not a date', 'UTC')).toBe('');
  });
});
