import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import type { MacGridData, ShadeScale } from './mac-grid.ts';
import { SHADES, shadeOf } from './mac-grid.ts';
import './mac-grid.css';
import { flagSeverity } from '#core/limits/pair-flags.ts';

/** A red corner for a flag that needs action, a grey one for advice. */
const FLAG_CLASS = { action: ' is-flagged', advisory: ' is-advised', none: '' } as const;

const CELL_WIDTH = 28;
const CELL_HEIGHT = 24;
const ROW_HEAD = 180;
const COLUMN_HEAD = 140;
/** Rows and columns drawn beyond the visible ones, so a scroll step shows no gap. */
const OVERSCAN = 4;
const MAX_HEIGHT = 640;
// One pixel of each cell is the grid line.
const CELL_SIZE = { width: CELL_WIDTH - 1, height: CELL_HEIGHT - 1 };

interface ProductGridProps {
  data: MacGridData;
  /** The shaded number of each pair (MACO or SAL), NaN where there is none. */
  values: Float64Array;
  label: string;
  unit: string;
  scale: ShadeScale | null;
  onOpen: (previous: number, next: number) => void;
}

interface Window {
  firstRow: number;
  lastRow: number;
  firstColumn: number;
  lastColumn: number;
}

function windowOf(element: HTMLElement, size: number): Window {
  const rows = Math.max(0, element.clientHeight - COLUMN_HEAD);
  const columns = Math.max(0, element.clientWidth - ROW_HEAD);
  const top = Math.floor(element.scrollTop / CELL_HEIGHT);
  const left = Math.floor(element.scrollLeft / CELL_WIDTH);
  return {
    firstRow: Math.max(0, top - OVERSCAN),
    lastRow: Math.min(size - 1, top + Math.ceil(rows / CELL_HEIGHT) + OVERSCAN),
    firstColumn: Math.max(0, left - OVERSCAN),
    lastColumn: Math.min(size - 1, left + Math.ceil(columns / CELL_WIDTH) + OVERSCAN),
  };
}

const sameWindow = (a: Window, b: Window) =>
  a.firstRow === b.firstRow &&
  a.lastRow === b.lastRow &&
  a.firstColumn === b.firstColumn &&
  a.lastColumn === b.lastColumn;

/**
 * Previous products as rows × next products as columns, each pair a cell shaded by its limit.
 * Only the cells in view are in the page (a 1,000-product facility has a million), positioned
 * absolutely in a scrolling area the size of the whole grid; the headers stay in view (sticky).
 */
export function ProductGrid({ data, values, label, unit, scale, onOpen }: ProductGridProps) {
  const numbers = useNumberFormat();
  const size = data.axis.length;
  const scroller = useRef<HTMLDivElement>(null);
  const frame = useRef(0);
  const [view, setView] = useState<Window>({
    firstRow: 0,
    lastRow: Math.min(size - 1, 30),
    firstColumn: 0,
    lastColumn: Math.min(size - 1, 40),
  });
  const update = () => {
    const element = scroller.current;
    if (!element) return;
    const next = windowOf(element, size);
    setView((current) => (sameWindow(current, next) ? current : next));
  };
  const onScroll = () => {
    if (frame.current) return;
    // At most one new window a frame, however many scroll events arrive.
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      update();
    });
  };
  useLayoutEffect(() => {
    update();
    const element = scroller.current;
    const observer = new ResizeObserver(update);
    if (element) observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- update reads only refs and size
  }, [size]);

  const name = (position: number) => data.products[data.axis[position] ?? 0] ?? '';
  const columnHeads: ReactNode[] = [];
  const rowHeads: ReactNode[] = [];
  const cells: ReactNode[] = [];
  for (let c = view.firstColumn; c <= view.lastColumn; c++) {
    columnHeads.push(
      <div
        key={c}
        className="mac-grid-column-head"
        style={{ left: ROW_HEAD + c * CELL_WIDTH, width: CELL_WIDTH, height: COLUMN_HEAD }}
        title={name(c)}
      >
        <span>{name(c)}</span>
      </div>,
    );
  }
  const firstNext = data.axis[view.firstColumn] ?? 0;
  const lastNext = data.axis[view.lastColumn] ?? 0;
  for (let r = view.firstRow; r <= view.lastRow; r++) {
    const previous = data.axis[r] ?? 0;
    rowHeads.push(
      <div
        key={r}
        className="mac-grid-row-head"
        style={{ top: r * CELL_HEIGHT, height: CELL_HEIGHT, lineHeight: `${CELL_HEIGHT}px` }}
        title={name(r)}
      >
        {name(r)}
      </div>,
    );
    if (r >= view.firstColumn && r <= view.lastColumn) {
      cells.push(
        <div
          key={`self-${r}`}
          className="mac-grid-self"
          style={{ left: r * CELL_WIDTH, top: r * CELL_HEIGHT, ...CELL_SIZE }}
        />,
      );
    }
    const end = data.rowEnd(previous);
    for (let i = data.firstFrom(previous, firstNext); i < end; i++) {
      const next = data.next[i] ?? 0;
      if (next > lastNext) break;
      const c = data.position[next] ?? 0;
      const value = values[i] ?? Number.NaN;
      const shade = scale ? shadeOf(scale, value) : -1;
      const flags = data.flagsOf(i);
      const text = `${name(r)} → ${name(c)}: ${
        shade === -1 ? 'no limit' : `${label} ${numbers.quantity(value, unit)}`
      }${flags.length > 0 ? ` (${flags.join('; ')})` : ''}`;
      cells.push(
        <button
          key={i}
          type="button"
          className={`mac-grid-cell${shade === -1 ? ' is-none' : ''}${FLAG_CLASS[flagSeverity(flags) ?? 'none']}`}
          style={{
            left: c * CELL_WIDTH,
            top: r * CELL_HEIGHT,
            ...CELL_SIZE,
            ...(shade === -1 ? {} : { background: SHADES[shade] }),
          }}
          title={text}
          onClick={() => onOpen(previous, next)}
        />,
      );
    }
  }

  const width = size * CELL_WIDTH;
  const height = size * CELL_HEIGHT;
  return (
    <div
      ref={scroller}
      className="mac-grid"
      role="region"
      aria-label="MAC matrix grid"
      style={{ height: Math.min(MAX_HEIGHT, COLUMN_HEAD + height + 16) }}
      onScroll={onScroll}
    >
      <div style={{ position: 'relative', width: ROW_HEAD + width, height: COLUMN_HEAD + height }}>
        <div className="mac-grid-column-heads" style={{ height: COLUMN_HEAD }}>
          <div className="mac-grid-corner" style={{ width: ROW_HEAD, height: COLUMN_HEAD }}>
            <span>Next →</span>
            <span>Previous ↓</span>
          </div>
          {columnHeads}
        </div>
        <div className="mac-grid-row-heads" style={{ width: ROW_HEAD, height }}>
          {rowHeads}
        </div>
        <div
          className="mac-grid-cells"
          style={{
            left: ROW_HEAD,
            top: COLUMN_HEAD,
            width,
            height,
            backgroundSize: `${CELL_WIDTH}px ${CELL_HEIGHT}px`,
          }}
        >
          {cells}
        </div>
      </div>
    </div>
  );
}
