import { entityDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import { MEASURES } from '#core/units/measures.ts';

export type Cell = string | number | boolean | null;

/** Names ↔ ids of every entity, so that references travel by name in a workbook. */
export interface NameIndex {
  nameOf(entityKey: string, id: number): string | undefined;
  idOf(entityKey: string, name: string): number | undefined;
}

export interface Column {
  header: string;
  field: FieldDef;
  /** For a quantity: the value column or the unit column. */
  part?: 'value' | 'unit';
}

/**
 * The columns of an entity's sheet: one per field, two for a quantity (value and unit). Fields
 * kept on other sheets (a production's equipment and products) are left out.
 */
export function columnsOf(def: EntityDef, skip: readonly string[] = []): Column[] {
  return def.fields
    .filter((f) => !skip.includes(f.name))
    .flatMap((field): Column[] =>
      field.kind === 'quantity'
        ? [
            { header: field.label, field, part: 'value' },
            { header: `${field.label} unit`, field, part: 'unit' },
          ]
        : [{ header: field.label, field }],
    );
}

const ITEM = '; ';
const PART = ' | ';

function quantityText(q: unknown): string {
  const { value, unit } = q as { value: number; unit: string };
  return `${value} ${unit}`;
}

function valueText(field: FieldDef, value: unknown, names: NameIndex): string {
  if (value === null || value === undefined) return '';
  switch (field.kind) {
    case 'quantity':
      return quantityText(value);
    case 'reference':
      return (Array.isArray(value) ? value : [value])
        .map(
          (id: number) =>
            names.nameOf(field.entity, id) ??
            missingRecord(entityDef(field.entity).label, 'archived or deleted'),
        )
        .join(ITEM);
    case 'boolean':
      return value ? 'Yes' : 'No';
    default:
      return String(value);
  }
}

/** The cell of a record for one column. */
export function cellOf(column: Column, record: Record<string, unknown>, names: NameIndex): Cell {
  const value = record[column.field.name];
  if (value === null || value === undefined) return null;
  const { field } = column;
  switch (field.kind) {
    case 'quantity': {
      const q = value as { value: number; unit: string };
      return column.part === 'value' ? q.value : q.unit;
    }
    case 'number':
    case 'integer':
      return value as number;
    case 'list':
      return (value as Record<string, unknown>[])
        .map((item) => field.of.map((sub) => valueText(sub, item[sub.name], names)).join(PART))
        .join(ITEM);
    default:
      return valueText(field, value, names);
  }
}

export class CellError extends Error {}

function parseNumber(text: string, label: string): number {
  const n = Number(text.replace(',', '.'));
  if (text === '' || !Number.isFinite(n))
    throw new CellError(`${label}: '${text}' is not a number`);
  return n;
}

function parseQuantityText(text: string, field: Extract<FieldDef, { kind: 'quantity' }>) {
  const match = /^\s*([-+0-9.eE,]+)\s*(\S+)\s*$/.exec(text);
  if (!match)
    throw new CellError(
      `'${text}' is not a quantity such as '10 ${MEASURES[field.measure].default}'`,
    );
  return { value: parseNumber(match[1]!, field.label), unit: match[2]! };
}

function parseReference(
  text: string,
  field: Extract<FieldDef, { kind: 'reference' }>,
  names: NameIndex,
): number | number[] {
  const list = text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  const ids = list.map((name) => {
    const id = names.idOf(field.entity, name);
    if (id === undefined)
      throw new CellError(`no ${entityDef(field.entity).label.toLowerCase()} named '${name}'`);
    return id;
  });
  if (field.multiple) return ids;
  if (ids.length !== 1)
    throw new CellError(`name one ${entityDef(field.entity).label.toLowerCase()}`);
  return ids[0]!;
}

function parseText(field: FieldDef, text: string, names: NameIndex): unknown {
  switch (field.kind) {
    case 'number':
    case 'integer':
      return parseNumber(text, field.label);
    case 'boolean':
      if (/^(yes|true|1)$/i.test(text)) return true;
      if (/^(no|false|0)$/i.test(text)) return false;
      throw new CellError(`'${text}' is not Yes or No`);
    case 'quantity':
      return parseQuantityText(text, field);
    case 'reference':
      return parseReference(text, field, names);
    case 'list':
      return text
        .split(';')
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => {
          const parts = item.split('|').map((p) => p.trim());
          return Object.fromEntries(
            field.of.flatMap((sub, i) =>
              parts[i] ? [[sub.name, parseText(sub, parts[i], names)]] : [],
            ),
          );
        });
    default:
      return text;
  }
}

/** Reads one row of a sheet into field values; a cell that cannot be read throws CellError. */
export function readRow(
  columns: Column[],
  cells: Map<string, Cell>,
  names: NameIndex,
  onError: (header: string, message: string) => void,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of columns) {
    const raw = cells.get(column.header);
    const text = raw === null || raw === undefined ? '' : String(raw).trim();
    const { field } = column;
    try {
      if (field.kind === 'quantity') {
        if (column.part === 'unit') continue;
        const unitText = String(cells.get(`${field.label} unit`) ?? '').trim();
        if (text === '' && unitText === '') continue;
        if (unitText === '') {
          values[field.name] = parseQuantityText(text, field);
        } else {
          values[field.name] = { value: parseNumber(text, field.label), unit: unitText };
        }
        continue;
      }
      if (text === '') continue;
      values[field.name] = parseText(field, text, names);
    } catch (error) {
      onError(column.header, error instanceof Error ? error.message : String(error));
    }
  }
  return values;
}
