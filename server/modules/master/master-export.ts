import type ExcelJS from 'exceljs';
import { equipmentDef, productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, type EntityRecord } from '#server/entities/entity-store.ts';
import type { AsOfOptions } from '#server/entities/entity-history.ts';
import { entitySections, MAPPINGS_SHEET, MATRIX_SHEET } from './master-sections.ts';
import { cellOf, columnsOf, type NameIndex } from './workbook-columns.ts';

/** Every declared entity's live records (as of `asOf`, or now), and the name of each id. */
export async function loadFacility(q: Queryable, facilityId: number, options: AsOfOptions = {}) {
  const records = new Map<string, EntityRecord[]>();
  for (const { def } of entitySections())
    records.set(def.key, await allEntities(q, def, facilityId, options));
  return { records, names: namesOf(records) };
}

/** The name of each id of the records, and the id of each name, per entity key. */
export function namesOf(records: ReadonlyMap<string, EntityRecord[]>) {
  const byKey = new Map<string, Map<number, string>>();
  for (const [key, rows] of records)
    byKey.set(key, new Map(rows.map((r) => [r.id, r.name as string])));
  const byName = new Map<string, Map<string, number>>();
  for (const [key, rows] of records)
    byName.set(key, new Map(rows.map((r) => [(r.name as string).toLowerCase(), r.id])));
  const names: NameIndex & { add(key: string, id: number, name: string): void } = {
    nameOf: (key, id) => byKey.get(key)?.get(id),
    idOf: (key, name) => byName.get(key)?.get(name.toLowerCase()),
    add(key, id, name) {
      if (!byKey.has(key)) byKey.set(key, new Map());
      if (!byName.has(key)) byName.set(key, new Map());
      byKey.get(key)!.set(id, name);
      byName.get(key)!.set(name.toLowerCase(), id);
    },
  };
  return names;
}

/** Bold, tinted, frozen header row and column widths from the headers (every exported sheet). */
export function styleHeader(sheet: ExcelJS.Worksheet): void {
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE3EFEA' } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  sheet.columns.forEach((column) => {
    column.width = Math.min(40, Math.max(12, String(column.header ?? '').length + 2));
  });
}

/** The facility's master data as a workbook, one sheet per section. */
export async function exportMasterData(q: Queryable, facilityId: number): Promise<Buffer> {
  const { records } = await loadFacility(q, facilityId);
  return masterWorkbook(records, new Date());
}

/** The master-data workbook of these records (the export, and the master-data snapshot report). */
export async function masterWorkbook(
  records: ReadonlyMap<string, EntityRecord[]>,
  created: Date,
): Promise<Buffer> {
  const names = namesOf(records);
  // exceljs takes half a second to load: only the calls that need it pay for it.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  workbook.creator = 'Carryover';
  workbook.created = created;

  for (const { sheet, def, skip } of entitySections()) {
    const columns = columnsOf(def, skip);
    const ws = workbook.addWorksheet(sheet);
    ws.columns = columns.map((c) => ({ header: c.header, key: c.header }));
    for (const record of records.get(def.key) ?? [])
      ws.addRow(columns.map((c) => cellOf(c, record, names)));
    styleHeader(ws);
  }

  const productions = records.get(productionsDef.key) ?? [];
  const equipment = records.get(equipmentDef.key) ?? [];
  const matrix = workbook.addWorksheet(MATRIX_SHEET);
  matrix.columns = [
    { header: 'Production', key: 'Production' },
    ...equipment.map((e) => ({ header: e.name as string, key: `e${e.id}` })),
  ];
  for (const production of productions) {
    const used = new Set((production.equipmentIds as number[]) ?? []);
    matrix.addRow([
      production.name as string,
      ...equipment.map((e) => (used.has(e.id) ? 'X' : null)),
    ]);
  }
  styleHeader(matrix);

  const mappings = workbook.addWorksheet(MAPPINGS_SHEET);
  mappings.columns = [
    { header: 'Production', key: 'Production' },
    { header: 'Product', key: 'Product' },
  ];
  for (const production of productions) {
    for (const id of (production.productIds as number[]) ?? []) {
      mappings.addRow([
        production.name as string,
        names.nameOf(productsDef.key, id) ??
          missingRecord(productsDef.label, 'archived or deleted'),
      ]);
    }
  }
  styleHeader(mappings);

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
