import { Button, Input } from 'antd';
import { useNumberFormat } from '#client/shared/use-number-format.ts';

/** A number with its unit that opens its derivation; a dash when there is none. */
export function LimitCell({
  value,
  unit,
  label,
  onOpen,
}: {
  value: number | null;
  unit: string;
  /** Accessible name, e.g. "SAL of E1". */
  label: string;
  onOpen: (() => void) | null;
}) {
  const numbers = useNumberFormat();
  if (value === null) return <>—</>;
  const text = numbers.quantity(value, unit);
  if (!onOpen) return <>{text}</>;
  return (
    <Button
      type="link"
      size="small"
      style={{ padding: 0 }}
      aria-label={`${label}: ${text}`}
      onClick={onOpen}
    >
      {text}
    </Button>
  );
}

/** Sorts nulls last, whichever the direction of the numbers. */
export const byNumber =
  <T,>(get: (row: T) => number | null) =>
  (a: T, b: T) =>
    (get(a) ?? Number.POSITIVE_INFINITY) - (get(b) ?? Number.POSITIVE_INFINITY);

/** Rows whose names hold the search text (case-insensitive). */
export function matching<T>(rows: T[], search: string, names: (row: T) => string[]): T[] {
  const s = search.trim().toLowerCase();
  if (!s) return rows;
  return rows.filter((row) => names(row).some((n) => n.toLowerCase().includes(s)));
}

export function SearchBox({
  placeholder,
  onSearch,
}: {
  placeholder: string;
  onSearch: (text: string) => void;
}) {
  return (
    <Input.Search
      allowClear
      placeholder={placeholder}
      aria-label={placeholder}
      onChange={(e) => onSearch(e.target.value)}
      style={{ maxWidth: 320, marginBottom: 12 }}
    />
  );
}
