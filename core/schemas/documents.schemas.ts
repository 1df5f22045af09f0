/** A calendar date written YYYY-MM-DD (ISO 8601), as documents and change records carry them. */
export function isoDateProblem(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return 'must be a date written YYYY-MM-DD';
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value
    ? 'is not a calendar date'
    : undefined;
}

/** The kinds of controlled document that go through versions, signatures and approval policies. */
export const DOCUMENT_TYPES = [
  'Cleaning assessment',
  'Change assessment',
  'Protocol',
  'Study report',
  'Limits report',
  'Annual summary',
  'Master data snapshot',
  'Other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
