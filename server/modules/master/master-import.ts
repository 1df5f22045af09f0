import { equipmentDef, productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { createSchema, recordProblems, type EntityDef } from '#core/entities/entity.ts';
import { optionalFieldSchema, type FieldDef } from '#core/entities/field.ts';
import { AppError } from '#core/errors/errors.ts';
import { z } from 'zod';
import type { Db } from '#server/db/db.ts';
import { createEntitiesBulk, ROWS_PER_STATEMENT } from '#server/entities/entity-bulk.ts';
import type { EntityRecord, Scope } from '#server/entities/entity-store.ts';
import { updateEntity } from '#server/entities/entity-write.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { loadFacility } from './master-export.ts';
import { entitySections, MAPPINGS_SHEET, MATRIX_SHEET } from './master-sections.ts';
import { columnsOf, readRow, type Cell } from './workbook-columns.ts';
import { readWorkbook, type SheetRows } from './workbook-read.ts';

export interface ImportProblem {
  sheet: string;
  row: number;
  column: string;
  message: string;
}

export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  rows: number;
  problems: ImportProblem[];
}

/** The column a property path points at: 'surfaceArea.unit' → 'Surface area unit'. */
function headerOf(def: EntityDef, property: string): string {
  const [name, rest] = property.split(/[.[](.*)/s);
  const field = def.fields.find((f) => f.name === name);
  if (!field) return property;
  return field.kind === 'quantity' && rest?.startsWith('unit')
    ? `${field.label} unit`
    : field.label;
}

const TEMP_ID_BASE = 2_000_000_000;

interface PlannedSection {
  def: EntityDef;
  creates: { tempId: number; values: Record<string, unknown> }[];
  updates: { id: number; version: number; edit: Record<string, unknown> }[];
}

function partialSchema(def: EntityDef) {
  return z
    .object(Object.fromEntries(def.fields.map((f) => [f.name, optionalFieldSchema(f)])))
    .strict();
}

/** The fields an edit would change, or null when it changes nothing. */
function diff(
  before: Record<string, unknown>,
  edit: Record<string, unknown>,
): Record<string, unknown> | null {
  try {
    return changedFields(before, edit).newValues;
  } catch (error) {
    if (error instanceof AppError && error.errName === 'NothingToChangeError') return null;
    throw error;
  }
}

/**
 * Rows created by this import carry ids from TEMP_ID_BASE up until they are written (above any
 * real id, and still valid references for the schemas); then their real ones.
 */
function resolveIds(
  def: EntityDef,
  values: Record<string, unknown>,
  ids: Map<number, number>,
): Record<string, unknown> {
  const real = (id: unknown) => (typeof id === 'number' && id >= TEMP_ID_BASE ? ids.get(id) : id);
  const resolveField = (field: FieldDef, value: unknown): unknown => {
    if (value === null || value === undefined) return value;
    if (field.kind === 'reference') return Array.isArray(value) ? value.map(real) : real(value);
    if (field.kind === 'list') {
      return (value as Record<string, unknown>[]).map((item) =>
        Object.fromEntries(
          field.of
            .map((sub) => [sub.name, resolveField(sub, item[sub.name])])
            .filter(([, v]) => v !== undefined),
        ),
      );
    }
    return value;
  };
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const field = def.fields.find((f) => f.name === name);
      return [name, field ? resolveField(field, value) : value];
    }),
  );
}

async function archivedNames(db: Db, facilityId: number): Promise<Set<string>> {
  const out = new Set<string>();
  for (const { def } of entitySections()) {
    const rows = await db.query<{ name: string }>(
      `select name from ${def.table} where facility_id = $1 and archived_at is not null`,
      [facilityId],
    );
    for (const row of rows) out.add(`${def.key}:${row.name.toLowerCase()}`);
  }
  return out;
}

/**
 * Imports a master-data workbook in two steps. First every row is read and checked against the
 * facility and the rest of the workbook, writing nothing; the report lists every problem by
 * sheet, row and column, and any problem stops the import. Then all the changes are written in
 * one audited transaction, new rows in bulk. Rows are matched to existing records by name; an
 * empty cell leaves the field as it is.
 */
export async function importMasterData(
  db: Db,
  actor: Actor,
  scope: Scope,
  buffer: Buffer,
  fileName: string,
): Promise<ImportReport> {
  // The workbook's rows are garbage once planned: only the planned values stay for the writes.
  const { plan, report } = await planImport(db, scope, await readWorkbook(buffer));
  if (report.problems.length > 0) {
    const { problems } = report;
    throw new AppError(
      'DataValidationError',
      `The workbook has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`,
      {
        errors: problems.slice(0, 1000).map((p) => ({
          property: `${p.sheet}[${p.row}].${p.column}`,
          constraints: { import: p.message },
        })),
        otherErrors: problems,
      },
    );
  }
  await writePlan(db, actor, scope, plan, `Imported from ${fileName}`, report);
  return report;
}

/** Reads and checks every row against the facility and the workbook, writing nothing. */
async function planImport(
  db: Db,
  scope: Scope,
  sheets: Map<string, SheetRows>,
): Promise<{ plan: PlannedSection[]; report: ImportReport }> {
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, rows: 0, problems: [] };
  const problem = (sheet: string, row: number, column: string, message: string) =>
    report.problems.push({ sheet, row, column, message });

  const { records, names } = await loadFacility(db, scope.facilityId);
  const archived = await archivedNames(db, scope.facilityId);
  const existingByName = new Map<string, EntityRecord>();
  for (const [key, rows] of records)
    for (const r of rows) existingByName.set(`${key}:${(r.name as string).toLowerCase()}`, r);
  let nextTempId = TEMP_ID_BASE;
  const plan: PlannedSection[] = [];

  for (const { sheet, def, skip } of entitySections()) {
    const data = sheets.get(sheet);
    if (!data) continue;
    const section: PlannedSection = { def, creates: [], updates: [] };
    plan.push(section);
    const columns = columnsOf(def, skip);
    // Built once a sheet: building a schema costs far more than using it.
    const create = createSchema(def);
    const partial = partialSchema(def);
    const known = new Set(columns.map((c) => c.header));
    data.headers.forEach(
      (h) =>
        h &&
        !known.has(h) &&
        problem(sheet, 1, h, `Unknown column; expected one of: ${[...known].join(', ')}`),
    );
    const seen = new Set<string>();
    for (const { row, cells } of data.rows) {
      report.rows += 1;
      let bad = false;
      const values = readRow(columns, cells, names, (column, message) => {
        bad = true;
        problem(sheet, row, column, message);
      });
      if (bad) continue;
      const name = typeof values.name === 'string' ? values.name : '';
      const key = `${def.key}:${name.toLowerCase()}`;
      if (!name) {
        problem(sheet, row, 'Name', 'Name is required');
        continue;
      }
      if (seen.has(key)) {
        problem(sheet, row, 'Name', `'${name}' appears more than once in this sheet`);
        continue;
      }
      seen.add(key);
      if (archived.has(key)) {
        problem(
          sheet,
          row,
          'Name',
          `Data Archived: '${name}' is archived. Restore it from the archived list, or change the name to create a new one.`,
        );
        continue;
      }
      const existing = existingByName.get(key);
      const checked = (existing ? partial : create).safeParse(values);
      if (!checked.success) {
        for (const issue of checked.error.issues)
          problem(sheet, row, headerOf(def, issue.path.join('.')), issue.message);
        continue;
      }
      const crossField = recordProblems(def, { ...existing, ...checked.data });
      if (crossField.length > 0) {
        for (const p of crossField)
          for (const message of Object.values(p.constraints))
            problem(sheet, row, headerOf(def, p.property), message);
        continue;
      }
      if (existing) {
        const edit = diff(existing, checked.data);
        if (edit) section.updates.push({ id: existing.id, version: existing.version, edit });
        else report.unchanged += 1;
      } else {
        const tempId = nextTempId++;
        section.creates.push({ tempId, values: checked.data });
        names.add(def.key, tempId, name);
      }
    }
  }

  const productionEdits = planProductionSheets(sheets, names, report, problem);
  // A new production takes its equipment and products in its creation; a known one is edited.
  const productionsPlan = plan.find((s) => s.def.key === productionsDef.key);
  for (const [id, edit] of productionEdits) {
    const created = productionsPlan?.creates.find((c) => c.tempId === id);
    if (created) {
      Object.assign(created.values, edit);
      continue;
    }
    const existing = records.get(productionsDef.key)?.find((r) => r.id === id);
    if (!existing) continue;
    const changed = diff(existing, inStoredOrder(existing, edit));
    if (!changed) continue;
    const planned = productionsPlan?.updates.find((u) => u.id === id);
    if (planned) Object.assign(planned.edit, changed);
    else if (productionsPlan)
      productionsPlan.updates.push({ id, version: existing.version, edit: changed });
    else
      plan.push({
        def: productionsDef,
        creates: [],
        updates: [{ id, version: existing.version, edit: changed }],
      });
  }

  return { plan, report };
}

/**
 * Writes a plan in one transaction, so that a failed import changes nothing. New rows go in
 * batches of ROWS_PER_STATEMENT, their ids resolved batch by batch: no second copy of a whole
 * sheet's values is built.
 */
async function writePlan(
  db: Db,
  actor: Actor,
  scope: Scope,
  plan: PlannedSection[],
  reason: string,
  report: ImportReport,
): Promise<void> {
  await db.transaction(async (tx) => {
    const ids = new Map<number, number>();
    for (const { def, creates, updates } of plan) {
      for (let start = 0; start < creates.length; start += ROWS_PER_STATEMENT) {
        const batch = creates.slice(start, start + ROWS_PER_STATEMENT);
        const created = await createEntitiesBulk(
          tx,
          actor,
          def,
          scope,
          batch.map((c) => resolveIds(def, c.values, ids)),
          reason,
        );
        batch.forEach((c, i) => ids.set(c.tempId, created[i]!));
        report.created += batch.length;
      }
      for (const update of updates) {
        await updateEntity(tx, {
          actor,
          def,
          scope,
          id: update.id,
          edit: resolveIds(def, update.edit, ids),
          reason,
          version: update.version,
        });
        report.updated += 1;
      }
    }
  });
  await analyzeLoaded(db, plan);
}

/** Past this many new rows in a table, its statistics are gathered again once they are in. */
const ANALYZE_AFTER_ROWS = 500;

/**
 * PostgreSQL plans every read of a table from its statistics, which autovacuum gathers only some
 * time after a bulk load (never while it is off): until then a facility of 10,000 imported rows
 * is planned as if it had one, and its list searches read every row instead of their trigram
 * index (issue 34). The PostgreSQL manual's "Populating a Database" says to run ANALYZE after
 * a load. The app's role on a server does not own the tables, which only an owner may analyze
 * before PostgreSQL 17: `analyze_loaded` runs as the owner that migrated (its migration).
 */
async function analyzeLoaded(db: Db, plan: PlannedSection[]): Promise<void> {
  if (db.joinsTransaction) return; // uncommitted: the caller's transaction may still roll back
  const loaded = new Set(
    plan.filter((s) => s.creates.length >= ANALYZE_AFTER_ROWS).map((s) => s.def.table),
  );
  for (const table of loaded) await db.query('select analyze_loaded($1::regclass)', [table]);
}

/**
 * The matrix lists equipment in column order and the mappings in row order, neither of which is
 * the order a production stores. Order carries no meaning there, so the same ids in another order
 * are no change: an unchanged export imports with no update and no audit row.
 */
function inStoredOrder(
  existing: EntityRecord,
  edit: { equipmentIds?: number[]; productIds?: number[] },
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...edit };
  for (const key of ['equipmentIds', 'productIds'] as const) {
    const stored = existing[key];
    const given = edit[key];
    if (!given || !Array.isArray(stored)) continue;
    const isSameSet = stored.length === given.length && given.every((id) => stored.includes(id));
    if (isSameSet) out[key] = stored;
  }
  return out;
}

/** The matrix and mappings sheets: each production's equipment and products, by id. */
function planProductionSheets(
  sheets: Map<string, SheetRows>,
  names: Awaited<ReturnType<typeof loadFacility>>['names'],
  report: ImportReport,
  problem: (sheet: string, row: number, column: string, message: string) => void,
): Map<number, { equipmentIds?: number[]; productIds?: number[] }> {
  const changes = new Map<number, { equipmentIds?: number[]; productIds?: number[] }>();
  const productionId = (sheet: string, row: number, cells: Map<string, Cell>) => {
    const name = String(cells.get('Production') ?? '').trim();
    const id = name ? names.idOf(productionsDef.key, name) : undefined;
    if (id === undefined)
      problem(
        sheet,
        row,
        'Production',
        name ? `no production named '${name}'` : 'Production is required',
      );
    return id;
  };

  const matrix = sheets.get(MATRIX_SHEET);
  if (matrix) {
    const equipmentColumns = matrix.headers.filter((h) => h && h !== 'Production');
    for (const header of equipmentColumns) {
      if (names.idOf(equipmentDef.key, header) === undefined)
        problem(MATRIX_SHEET, 1, header, `no equipment named '${header}'`);
    }
    for (const { row, cells } of matrix.rows) {
      report.rows += 1;
      const id = productionId(MATRIX_SHEET, row, cells);
      if (id === undefined) continue;
      const equipmentIds = equipmentColumns
        .filter((h) => /^(x|yes|1|true)$/i.test(String(cells.get(h) ?? '').trim()))
        .map((h) => names.idOf(equipmentDef.key, h))
        .filter((e): e is number => e !== undefined);
      changes.set(id, { ...changes.get(id), equipmentIds });
    }
  }

  const mappings = sheets.get(MAPPINGS_SHEET);
  if (mappings) {
    const byProduction = new Map<number, number[]>();
    for (const { row, cells } of mappings.rows) {
      report.rows += 1;
      const id = productionId(MAPPINGS_SHEET, row, cells);
      const productName = String(cells.get('Product') ?? '').trim();
      const product = names.idOf(productsDef.key, productName);
      if (product === undefined)
        problem(
          MAPPINGS_SHEET,
          row,
          'Product',
          productName ? `no product named '${productName}'` : 'Product is required',
        );
      if (id === undefined || product === undefined) continue;
      const list = byProduction.get(id) ?? [];
      if (!list.includes(product)) list.push(product);
      byProduction.set(id, list);
    }
    for (const [id, productIds] of byProduction)
      changes.set(id, { ...changes.get(id), productIds });
  }
  return changes;
}
