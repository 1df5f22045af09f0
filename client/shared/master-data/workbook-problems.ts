// Pure helpers of the workbook page, apart from the calls so they test without a browser.

/** One problem of a refused import, as the server lists it under `otherErrors`. */
export interface WorkbookProblem {
  sheet: string;
  row: number | null;
  column: string | null;
  message: string;
}

/** The file name the server chose (content-disposition), falling back to a generic one. */
export function fileNameOf(disposition: string | null): string {
  if (disposition) {
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    if (encoded?.[1]) return decodeURIComponent(encoded[1]);
    const plain = /filename="([^"]+)"/i.exec(disposition);
    if (plain?.[1]) return plain[1];
  }
  return 'Master Data.xlsx';
}

/** The problems of a refused import, read defensively from the error's `otherErrors`. */
export function problemsOf(otherErrors: readonly unknown[] | undefined): WorkbookProblem[] {
  if (!otherErrors) return [];
  return otherErrors.flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const record = item as Record<string, unknown>;
    const message = typeof record.message === 'string' ? record.message : String(item);
    return [
      {
        sheet: typeof record.sheet === 'string' ? record.sheet : '',
        row: typeof record.row === 'number' ? record.row : null,
        column:
          typeof record.column === 'string' || typeof record.column === 'number'
            ? String(record.column)
            : null,
        message,
      },
    ];
  });
}
