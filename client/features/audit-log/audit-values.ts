/** Old or new values of an audit row as 'field: value' lines. */
export function valueLines(values: Record<string, unknown> | null): string[] {
  if (!values) return [];
  return Object.entries(values).map(([field, value]) => {
    const text =
      value === null || value === undefined
        ? '—'
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
    return `${field}: ${text}`;
  });
}
