import { AppError } from '#core/errors/errors.ts';
import { compileLimits } from '#core/limits/compile.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import type { TCompareResponse, TCompareRow } from '#core/schemas/report-compare.schemas.ts';
import type { TGenerateReportBody, TReportKind } from '#core/schemas/reports.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { dataChangesBetween } from '../cleaning-assessments/from-last.ts';
import { limitMoves } from '../dashboard/dashboard.service.ts';
import type { MacPdfData } from '../limits/mac-production-pdf.ts';
import { computeReport } from './reports.service.ts';

/*
 * "Compare with today" (README.md): the report's data computed now from its parameters, what
 * changed row by row, the limits snapshots stored since with the approval behind each, and the
 * edits of GMP data since (direct, or applied by an approved change assessment).
 */

type Cell = string | number | boolean | null;
type Rows = Map<string, Record<string, Cell>>;

const EDITS_SHOWN = 200;

/** The governing MACO (mg) of every pair of a limits report, keyed 'Production: A -> B'. */
function limitRows(data: unknown): Rows {
  const rows: Rows = new Map();
  for (const production of (data as { productions: MacPdfData[] }).productions) {
    const products = production.input.products.map((p) => p.id);
    runMatrix(compileLimits(production.input), (view) => {
      const pair = `${production.productionName}: ${products[view.previous]} -> ${products[view.next]}`;
      rows.set(pair, { maco: Number.isFinite(view.maco) ? view.maco : null });
    });
  }
  return rows;
}

const KEY_FIELDS = ['key', 'number', 'id', 'sequence', 'name', 'product', 'train'];

/**
 * Any report's data as rows by key: each object's plain fields are one row at its path, an
 * array's objects keyed by their first identifying field (else their position).
 */
function genericRows(data: unknown, path = '', rows: Rows = new Map()): Rows {
  if (Array.isArray(data)) {
    data.forEach((item, i) => {
      const keyField =
        item && typeof item === 'object'
          ? KEY_FIELDS.find((f) => ['string', 'number'].includes(typeof item[f]))
          : undefined;
      const key = keyField ? `${keyField}=${String(item[keyField])}` : String(i);
      genericRows(item, `${path}[${key}]`, rows);
    });
  } else if (data && typeof data === 'object') {
    const plain: Record<string, Cell> = {};
    for (const [field, value] of Object.entries(data)) {
      if (value !== null && typeof value === 'object')
        genericRows(value, path ? `${path}.${field}` : field, rows);
      else plain[field] = value as Cell;
    }
    if (Object.keys(plain).length > 0) rows.set(path || '(report)', plain);
  } else {
    rows.set(path || '(report)', { value: data as Cell });
  }
  return rows;
}

const percent = (old: Cell, now: Cell) =>
  typeof old === 'number' && typeof now === 'number' && old !== 0
    ? ((now - old) / old) * 100
    : null;

/** The rows that differ, in the order of the report then the new rows. */
export function diffRows(before: Rows, after: Rows, mode: 'limits' | 'rows'): TCompareRow[] {
  const out: TCompareRow[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(key);
    const now = after.get(key);
    const fields = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])]
      .filter((f) => (old?.[f] ?? null) !== (now?.[f] ?? null))
      .map((f) => ({ field: f, old: old?.[f] ?? null, new: now?.[f] ?? null }));
    if (old && now && fields.length === 0) continue;
    const change = !old ? 'added' : !now ? 'removed' : 'changed';
    const limit = mode === 'limits';
    const oldValue = limit ? (old?.maco ?? null) : null;
    const newValue = limit ? (now?.maco ?? null) : null;
    out.push({
      key,
      change,
      pair: limit ? key : null,
      old: oldValue,
      new: newValue,
      percentChange: limit ? percent(oldValue, newValue) : null,
      fields,
    });
  }
  return out;
}

const LIMIT_KINDS: readonly TReportKind[] = ['production-limits'];

export async function compareReport(
  db: Db,
  facilityId: number,
  id: number,
): Promise<TCompareResponse> {
  const [row] = await db.query<{
    kind: TReportKind;
    parameters: TGenerateReportBody;
    as_of: string | null;
    data: unknown;
    data_hash: string | null;
  }>(
    `select kind, parameters, data, data_hash,
            to_char(as_of at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as as_of
       from reports where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', 'No such report');
  if (!row.as_of) throw new AppError('TransactionLocked', 'The report is still being generated');
  const [clock] = await db.query<{ at: string }>(
    `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at`,
  );
  const now = clock!.at;
  const computed = await computeReport(db, facilityId, row.parameters, now);
  const mode = LIMIT_KINDS.includes(row.kind) ? 'limits' : 'rows';
  const rowsOf = mode === 'limits' ? limitRows : (data: unknown) => genericRows(data);
  const [snapshots, edits] = await Promise.all([
    limitMoves(db, facilityId, row.as_of, now),
    dataChangesBetween(db, facilityId, {
      since: row.as_of,
      until: now,
      pageNumber: 1,
      pageLimit: EDITS_SHOWN,
    }),
  ]);
  return {
    reportId: id,
    asOf: row.as_of,
    now,
    storedDataHash: row.data_hash,
    dataHash: computed.dataHash,
    same: computed.dataHash === row.data_hash,
    mode,
    rows: diffRows(rowsOf(row.data), rowsOf(computed.data), mode),
    snapshots,
    edits: edits.changes,
    editCount: edits.total,
  };
}
