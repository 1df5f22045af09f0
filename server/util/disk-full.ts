const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
const DISK_FULL_TEXT = /could not extend file|no space left on device|disk quota exceeded/i;

/**
 * Whether `error` says the disk (or the quota) is full: Node's ENOSPC, PostgreSQL's disk_full
 * (53100), or its "could not extend file" when a table or the WAL cannot grow.
 */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  return typeof message === 'string' && DISK_FULL_TEXT.test(message);
}
