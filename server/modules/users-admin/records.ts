import { AppError } from '#core/errors/errors.ts';

/** Timestamps leave the server as ISO strings, whichever driver read them. */
export function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** PostgreSQL's unique_violation: a concurrent insert won the race our own check lost. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}

export function duplicateEntry(property: string, message: string): AppError {
  return new AppError('DuplicateEntryError', message, {
    errors: [{ property, constraints: { unique: message } }],
  });
}

export function archivedEntry(property: string): AppError {
  return new AppError('ArchivedEntryError', undefined, {
    errors: [{ property, constraints: { archived: 'Data Archived' } }],
  });
}

export function notFound(what: string): AppError {
  return new AppError('NotFoundError', `${what} was not found`);
}

/** The record changed since the caller read it: refuse, never overwrite (optimistic locking). */
export function assertVersion(current: number, given: number | undefined): void {
  if (given !== undefined && given !== current) throw new AppError('VersionConflictError');
}
