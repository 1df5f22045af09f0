/** The Content-Disposition of a file download: a plain fallback and the exact UTF-8 name. */
export function attachment(name: string): string {
  return `attachment; filename="${name.replace(/["\\\r\n]/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** 2026-11-22 14-05-09: sortable, and no colon, which some systems refuse in file names. */
export function fileTimestamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-');
}
