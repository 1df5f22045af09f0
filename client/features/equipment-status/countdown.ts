/** How long until a hold deadline, as the board shows it: '3 h 12 min left', '2 h overdue'. */
export function countdown(deadline: string | null, now: number): string | null {
  if (deadline === null) return null;
  const ms = Date.parse(deadline) - now;
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const parts = [
    ...(days > 0 ? [`${days} d`] : []),
    ...(days > 0 || hours > 0 ? [`${hours} h`] : []),
    ...(days === 0 ? [`${minutes % 60} min`] : []),
  ].join(' ');
  return ms > 0 ? `${parts} left` : `${parts} overdue`;
}

/** The state's colour on the board: green may be used, red must not, blue is being worked on. */
export const STATE_COLOURS = {
  Released: 'green',
  InUse: 'blue',
  Cleaning: 'geekblue',
  CleanAwaitingRelease: 'gold',
  Dirty: 'orange',
  HoldExpired: 'red',
  Blocked: 'red',
} as const;
