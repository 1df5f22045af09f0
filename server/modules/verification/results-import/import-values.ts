import {
  dateToWallClock,
  isValidTimeZone,
  wallClockToDate,
} from '#core/datetime/format-date-time.ts';

/*
 * How the numbers and times of a laboratory's file are read. Nothing is guessed: a number is
 * read with the decimal separator its mapping declares, and a time without a zone in the
 * facility's time zone; what could mean two things is a problem of its row, never a choice the
 * import makes quietly (21 CFR 211.68(b): the accuracy of input to a computerised system is
 * checked; EU GMP Annex 11 §5: data exchanged electronically is checked for correct input).
 */

export type DecimalSeparator = '.' | ',';

/** A number as the file writes it: the value, or the problem that says why it is not one. */
export function numberOf(
  cell: string | number,
  separator: DecimalSeparator,
): { value: number } | { problem: string } {
  if (typeof cell === 'number') return { value: cell };
  const text = cell.trim();
  if (separator === '.' && text.includes(','))
    return {
      problem: `${text} holds a comma, and this mapping reads a decimal point: write it without a thousands separator, or set the mapping's decimal separator to a comma`,
    };
  if (separator === ',' && text.includes('.'))
    return {
      problem: `${text} is ambiguous with this mapping's decimal comma (a point may group thousands or be a decimal point): write it without a thousands separator, as 1234,5`,
    };
  // Number() alone would take '', '0x1f' and 'Infinity': only decimal digits are a result.
  const plain = separator === ',' ? text.replace(',', '.') : text;
  if (!/^\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain))
    return { problem: `${text} is not a number of 0 or more` };
  return { value: Number(plain) };
}

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ZONELESS = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2})?(\.\d+)?)?$/;

const EXAMPLE = 'as 2026-11-02 14:30, or with its offset as 2026-11-02T14:30:00+01:00';

/**
 * A date and time of the file as an ISO instant. With an offset (or Z) it is that instant;
 * without one it is the facility's wall clock, read in its time zone. A wall-clock time the
 * zone skips (clocks forward) or passes twice (clocks back) names no single instant: a problem
 * asking for the offset. A facility zone the runtime does not know reads nothing.
 */
export function dateTimeOf(cell: string, timeZone: string): { at: string } | { problem: string } {
  const text = cell.trim();
  const notOne = { problem: `${text} is not a date and time: write it ${EXAMPLE}` };
  if (WITH_OFFSET.test(text)) {
    const at = new Date(text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(at.getTime()) ? notOne : { at: at.toISOString() };
  }
  const match = ZONELESS.exec(text);
  if (!match) return notOne;
  if (!isValidTimeZone(timeZone))
    return {
      problem: `${text} has no offset, and the facility's time zone ${timeZone} is not known here: write it with its offset, as 2026-11-02T14:30:00+01:00`,
    };
  const [, day, minutes = '00:00', seconds = ':00', fraction = ''] = match;
  const wall = `${day}T${minutes}${seconds}`;
  const at = wallClockToDate(wall, timeZone);
  if (Number.isNaN(at.getTime()) || dateToWallClock(at, timeZone) !== wall)
    return {
      problem: `${text} does not occur in the facility's time zone ${timeZone} (the clocks skip it): write it with its offset`,
    };
  // The same wall clock half an hour or an hour either side of a change of offset (Lord Howe
  // moves by 30 minutes, most zones by 60) is a second instant.
  const twice = [-60, -30, 30, 60].some((minutes) => {
    const other = new Date(at.getTime() + minutes * 60_000);
    return dateToWallClock(other, timeZone) === wall;
  });
  if (twice)
    return {
      problem: `${text} occurs twice in the facility's time zone ${timeZone} (the clocks go back): write it with its offset`,
    };
  const ms = fraction ? Math.round(Number(`0${fraction}`) * 1000) : 0;
  return { at: new Date(at.getTime() + ms).toISOString() };
}
