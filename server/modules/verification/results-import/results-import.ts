import { AppError } from '#core/errors/errors.ts';
import {
  IMPORT_COLUMN_FIELDS,
  resultsImportMappingsDef,
  type ImportColumnField,
} from '#core/entities/defs/results-import-mappings.def.ts';
import type {
  TImportProblem,
  TImportRow,
  TResultsImportResponse,
} from '#core/schemas/results-import.schemas.ts';
import {
  CENSORING,
  RESULT_UNITS,
  SAMPLE_TYPES,
  type TCensoring,
  type TResultUnit,
  type TSampleResultInput,
  type TSampleType,
} from '#core/schemas/verification.schemas.ts';
import { recordAfterRollback, withinTransaction, type Db, type Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import type { Cell } from '#server/modules/master/workbook-columns.ts';
import { enterResults } from '../runs/results.ts';
import { runName } from '../runs/runs.read.ts';
import type { Scope } from '../runs/runs.service.ts';
import { dateTimeOf, numberOf, type DecimalSeparator } from './import-values.ts';
import { readResultsFile } from './results-file.ts';

/*
 * Results from the laboratory (issue 33). A file is read with the laboratory's saved mapping,
 * each row resolved to a run, a planned location and a method, and the new rows entered through
 * the run screen's own entry (`enterResults`), so that an imported result is checked and judged
 * exactly as a typed one. A dry run does all of it and rolls it back, answering the judgements.
 * The commit is one transaction: any problem in any row and nothing is written. A row whose
 * run, location and sample number are already entered with the same result is left as it is,
 * so a file imported twice enters its results once.
 */

type Mapping = Record<ImportColumnField, string | null> & {
  id: number;
  name: string;
  decimalSeparator: DecimalSeparator | null;
};

/** What a row says once read: each field's text, and what it resolved to. */
interface Parsed {
  row: number;
  out: TImportRow;
  input?: TSampleResultInput;
  locationId?: number;
  methodId?: number;
}

interface PlanRow {
  samplingLocationId: number;
  sampleType: TSampleType;
  analyticalMethodId: number;
}

interface RunFacts {
  id: number;
  name: string;
  studyId: number;
  plan: PlanRow[];
}

const FIELD_WORDS: Record<ImportColumnField, string> = {
  runColumn: 'run',
  studyColumn: 'study',
  locationColumn: 'location',
  sampleNumberColumn: 'sample number',
  sampleTypeColumn: 'sample type',
  methodColumn: 'method',
  reportedColumn: 'reported',
  valueColumn: 'value',
  unitColumn: 'unit',
  sampledAtColumn: 'sampled at',
  analysedAtColumn: 'analysed at',
  analystColumn: 'analyst',
};

/** The entry's field a problem of `enterResults` names, and the mapping field of its column. */
const ENTRY_FIELD_COLUMN: Record<string, ImportColumnField> = {
  samplingLocationId: 'locationColumn',
  sampleType: 'sampleTypeColumn',
  analyticalMethodId: 'methodColumn',
  batchNumber: 'sampleNumberColumn',
  censoring: 'reportedColumn',
  rawValue: 'valueColumn',
  unit: 'unitColumn',
  takenAt: 'sampledAtColumn',
  analysedAt: 'analysedAtColumn',
  analyst: 'analystColumn',
  key: 'sampleNumberColumn',
  repeats: 'sampleNumberColumn',
};

const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The way laboratory systems write each censoring, spaces and case aside. */
function censoringOf(text: string | null): TCensoring | undefined {
  if (text === null || text === '') return '=';
  const compact = text.replace(/\s+/g, '').toLowerCase();
  return CENSORING.find((c) => c.replace(/\s+/g, '').toLowerCase() === compact);
}

const unitOf = (text: string): TResultUnit | undefined => {
  const compact = text.replace(/\s+/g, '').replace(/[µμ]/g, 'u').toLowerCase();
  return RESULT_UNITS.find((u) => u === compact);
};

async function mappingOf(db: Queryable, facilityId: number, id: number): Promise<Mapping> {
  const columns = IMPORT_COLUMN_FIELDS.map(
    (f) => `${f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} as "${f}"`,
  ).join(', ');
  const [row] = await db.query<Mapping & { archived_at: Date | null }>(
    `select id, name, archived_at, decimal_separator as "decimalSeparator", ${columns}
       from ${resultsImportMappingsDef.table}
      where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Import mapping ${id} was not found`);
  if (row.archived_at)
    throw new AppError('ArchivedEntryError', `The import mapping ${row.name} is archived`, {
      errors: [{ property: 'mappingId', constraints: { archived: 'This mapping is archived' } }],
    });
  return row;
}

/** The facility's runs by name (ST-0001 run 2) and each study's latest run by number. */
async function runsOf(db: Queryable, facilityId: number) {
  const rows = await db.query<{
    id: number;
    sequence: number;
    study_id: number;
    seq: number;
    protocol_content: { samplingPlan?: PlanRow[] };
  }>(
    `select r.id, r.sequence, r.study_id, s.seq, s.protocol_content
       from study_runs r join studies s on s.id = r.study_id
      where r.facility_id = $1 order by s.seq, r.sequence`,
    [facilityId],
  );
  const byName = new Map<string, RunFacts>();
  const latestOfStudy = new Map<string, RunFacts>();
  for (const r of rows) {
    const facts = {
      id: r.id,
      name: runName(r.seq, r.sequence),
      studyId: r.study_id,
      plan: r.protocol_content.samplingPlan ?? [],
    };
    byName.set(norm(facts.name), facts);
    latestOfStudy.set(norm(facts.name.replace(/ run \d+$/, '')), facts);
  }
  return { byName, latestOfStudy };
}

export async function importResults(
  db: Db,
  actor: Actor,
  scope: Scope,
  request: { mappingId: number; buffer: Buffer; fileName: string; dryRun: boolean },
): Promise<TResultsImportResponse> {
  const { facilityId } = scope;
  const mapping = await mappingOf(db, facilityId, request.mappingId);
  const sheet = await readResultsFile(request.buffer);
  const problems: TImportProblem[] = [];
  const headerOf = (field: ImportColumnField) => {
    const wanted = mapping[field];
    if (!wanted) return null;
    return sheet.headers.find((h) => norm(h) === norm(wanted)) ?? null;
  };
  const headers = new Map<ImportColumnField, string | null>();
  for (const field of IMPORT_COLUMN_FIELDS) headers.set(field, headerOf(field));
  // A file names its runs by run or by study: it needs one of the two columns, not both.
  const hasRunOrStudy = Boolean(headers.get('runColumn') ?? headers.get('studyColumn'));
  for (const field of IMPORT_COLUMN_FIELDS) {
    const alternative = field === 'runColumn' || field === 'studyColumn';
    if (mapping[field] && !headers.get(field) && !(alternative && hasRunOrStudy))
      problems.push({
        row: 1,
        column: mapping[field],
        message: `The file has no column ${mapping[field]} (the ${FIELD_WORDS[field]} in the mapping ${mapping.name})`,
      });
  }
  const answer = (rows: TImportRow[]): TResultsImportResponse => ({
    dryRun: request.dryRun,
    fileName: request.fileName,
    mappingId: mapping.id,
    rows,
    problems,
    counts: {
      rows: rows.length,
      new: rows.filter((r) => r.status === 'new').length,
      unchanged: rows.filter((r) => r.status === 'unchanged').length,
      problems: problems.length,
    },
  });
  if (problems.length > 0) return refuseOrAnswer(request.dryRun, problems, answer([]));

  const runs = await runsOf(db, facilityId);
  const [locations, methods, [facility]] = await Promise.all([
    db.query<{ id: number; name: string; equipment: string }>(
      `select l.id, l.name, e.name as equipment from sampling_locations l
         join equipment e on e.id = l.equipment_id where l.facility_id = $1`,
      [facilityId],
    ),
    db.query<{ id: number; name: string }>(
      `select id, name from analytical_methods where facility_id = $1 and archived_at is null`,
      [facilityId],
    ),
    db.query<{ timezone: string }>('select timezone from facilities where id = $1', [facilityId]),
  ]);
  const timeZone = facility?.timezone ?? 'UTC';
  const separator = mapping.decimalSeparator ?? '.';
  const locationById = new Map(locations.map((l) => [l.id, l]));
  const methodByName = new Map(methods.map((m) => [norm(m.name), m]));
  const methodName = new Map(methods.map((m) => [m.id, m.name]));

  const parsed: Parsed[] = sheet.rows.map(({ row, cells }) => {
    const cellOf = (field: ImportColumnField): Cell | undefined => {
      const header = headers.get(field);
      return header ? cells.get(header) : undefined;
    };
    const text = (field: ImportColumnField): string | null => {
      const cell = cellOf(field);
      return cell === undefined || cell === null ? null : String(cell).trim() || null;
    };
    const out: TImportRow = {
      row,
      status: 'new',
      runId: null,
      runName: null,
      location: text('locationColumn'),
      sampleNumber: text('sampleNumberColumn'),
      sampleType: null,
      method: text('methodColumn'),
      censoring: null,
      rawValue: null,
      unit: null,
      judgement: null,
    };
    const before = problems.length;
    const problem = (field: ImportColumnField, message: string) =>
      problems.push({ row, column: headers.get(field) ?? mapping[field] ?? '', message });

    // The run: named, or the latest run of the study named.
    const runText = text('runColumn');
    const studyText = text('studyColumn');
    let run: RunFacts | undefined;
    if (runText) {
      run = runs.byName.get(norm(runText.replace(/^(ST-\d+)\s*[/#-]\s*(\d+)$/i, '$1 run $2')));
      if (!run)
        problem('runColumn', `No run ${runText} in this facility (write it as ST-0001 run 2)`);
    } else if (studyText) {
      run = runs.latestOfStudy.get(norm(studyText));
      if (!run) problem('studyColumn', `No study ${studyText} with a run in this facility`);
    } else problem(mapping.runColumn ? 'runColumn' : 'studyColumn', 'The run is missing');
    if (run) {
      out.runId = run.id;
      out.runName = run.name;
    }

    // The location, among those the run's study plans.
    const locationText = out.location;
    let planned: PlanRow | undefined;
    if (!locationText) problem('locationColumn', 'The location is missing');
    else if (run) {
      const matches = run.plan.filter((p) => {
        const l = locationById.get(p.samplingLocationId);
        return (
          l &&
          (norm(l.name) === norm(locationText) ||
            norm(`${l.equipment} / ${l.name}`) === norm(locationText))
        );
      });
      if (matches.length === 0)
        problem(
          'locationColumn',
          `${locationText} is not a location of ${run.name}'s sampling plan`,
        );
      else if (matches.length > 1)
        problem(
          'locationColumn',
          `${locationText} names more than one location of the plan: write it as Equipment / Location`,
        );
      else planned = matches[0];
    }

    if (!out.sampleNumber) problem('sampleNumberColumn', 'The sample number is missing');
    else if (out.sampleNumber.length > 100)
      problem('sampleNumberColumn', 'A sample number is at most 100 characters');

    const typeText = text('sampleTypeColumn');
    const sampleType = typeText
      ? SAMPLE_TYPES.find((t) => t === typeText.toLowerCase())
      : planned?.sampleType;
    if (typeText && !sampleType) problem('sampleTypeColumn', 'The sample type is swab or rinse');
    out.sampleType = sampleType ?? null;

    let methodId = planned?.analyticalMethodId;
    if (out.method) {
      methodId = methodByName.get(norm(out.method))?.id;
      if (!methodId) problem('methodColumn', `No analytical method ${out.method} in this facility`);
    } else if (methodId) out.method = methodName.get(methodId) ?? null;

    const censoring = censoringOf(text('reportedColumn'));
    if (!censoring) problem('reportedColumn', 'Reported is one of =, < LOD, < LOQ, > upper limit');
    out.censoring = censoring ?? null;

    // An xlsx number cell is a number already; text is read with the mapping's separator.
    const valueCell = cellOf('valueColumn');
    const valueText = text('valueColumn');
    const read =
      valueText === null
        ? null
        : numberOf(typeof valueCell === 'number' ? valueCell : valueText, separator);
    const value = read && 'value' in read ? read.value : NaN;
    if (read === null) problem('valueColumn', 'The value is missing');
    else if ('problem' in read) problem('valueColumn', read.problem);
    else if (!Number.isFinite(value) || value < 0 || value > 1e12)
      problem('valueColumn', `${valueText} is not a number of 0 or more`);
    else out.rawValue = value;

    const unitText = text('unitColumn');
    const unit = unitText ? unitOf(unitText) : undefined;
    if (!unitText) problem('unitColumn', 'The unit is missing');
    else if (!unit)
      problem('unitColumn', `${unitText} is not a result unit (${RESULT_UNITS.join(', ')})`);
    out.unit = unit ?? null;

    const when = (field: 'sampledAtColumn' | 'analysedAtColumn') => {
      const t = text(field);
      if (t === null) return null;
      const read = dateTimeOf(t, timeZone);
      if ('problem' in read) {
        problem(field, read.problem);
        return null;
      }
      return read.at;
    };
    const takenAt = when('sampledAtColumn');
    const analysedAt = when('analysedAtColumn');
    const analyst = text('analystColumn');
    if (analyst && analyst.length > 200)
      problem('analystColumn', 'An analyst is at most 200 characters');

    if (problems.length > before || !planned || !methodId) {
      out.status = 'problem';
      return { row, out };
    }
    return {
      row,
      out,
      locationId: planned.samplingLocationId,
      methodId,
      input: {
        key: `r${row}`,
        samplingLocationId: planned.samplingLocationId,
        sampleType: sampleType!,
        analyticalMethodId: methodId,
        batchNumber: out.sampleNumber,
        censoring: censoring!,
        rawValue: value,
        unit: unit!,
        takenAt,
        analysedAt,
        analyst,
      },
    };
  });

  await markRepeatedAndEntered(db, facilityId, parsed, problems, headers, mapping);

  const toEnter = parsed.filter((p) => p.input && p.out.status === 'new');
  const byRun = new Map<number, Parsed[]>();
  for (const p of toEnter) byRun.set(p.out.runId!, [...(byRun.get(p.out.runId!) ?? []), p]);
  const refusals: unknown[] = [];
  const columnOfEntry = (field: string) => {
    const mapped = ENTRY_FIELD_COLUMN[field] ?? 'sampleNumberColumn';
    return headers.get(mapped) ?? mapping[mapped] ?? headers.get('sampleNumberColumn') ?? '';
  };

  const rows = await db.transaction(async (tx) => {
    const joined = withinTransaction(tx, db.kind);
    await tx.query('savepoint results_import');
    for (const [runId, group] of byRun) {
      await tx.query('savepoint results_import_run');
      try {
        await enterResults(
          joined,
          actor,
          scope,
          runId,
          group.map((p) => p.input!),
        );
        await tx.query('release savepoint results_import_run');
      } catch (error) {
        await tx.query('rollback to savepoint results_import_run');
        if (!(error instanceof AppError)) throw error;
        refusals.push(error);
        const rowOfKey = new Map(group.map((p) => [p.input!.key, p]));
        const named = (error.errors ?? []).flatMap((e) => {
          const [key, field = ''] = e.property.split('.');
          const p = rowOfKey.get(key ?? '');
          return p ? [{ p, field, message: Object.values(e.constraints)[0] ?? error.message }] : [];
        });
        // A problem of the run itself (submitted, closed) is a problem of each of its rows.
        const each = named.length
          ? named
          : group.map((p) => ({ p, field: 'run', message: error.message }));
        for (const { p, field, message } of each) {
          p.out.status = 'problem';
          problems.push({
            row: p.row,
            column:
              field === 'run'
                ? (headers.get('runColumn') ?? headers.get('studyColumn') ?? '')
                : columnOfEntry(field),
            message,
          });
        }
      }
    }
    await judgementsOf(tx, facilityId, toEnter);
    const ok = problems.length === 0 && !request.dryRun;
    if (ok) {
      const counts = answer(parsed.map((p) => p.out)).counts;
      await writeAudit(tx, actor, {
        ...scope,
        domain: 'SampleResult',
        action: 'Import',
        reason: `Imported from ${request.fileName}`,
        newValues: {
          fileName: request.fileName,
          mappingId: mapping.id,
          mapping: mapping.name,
          rows: counts.rows,
          entered: counts.new,
          unchanged: counts.unchanged,
        },
      });
    } else await tx.query('rollback to savepoint results_import');
    return parsed.map((p) => p.out);
  });
  // A refused change of a controlled run is audited once nothing else of the import stands.
  if (!request.dryRun) for (const refusal of refusals) await recordAfterRollback(refusal, db);
  problems.sort((a, b) => a.row - b.row);
  return refuseOrAnswer(request.dryRun, problems, answer(rows));
}

/** A commit with problems is refused in the catalogue's shape; a dry run answers them. */
function refuseOrAnswer(
  dryRun: boolean,
  problems: TImportProblem[],
  answer: TResultsImportResponse,
): TResultsImportResponse {
  if (dryRun || problems.length === 0) return answer;
  throw new AppError(
    'DataValidationError',
    `The file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`,
    {
      errors: problems.slice(0, 1000).map((p) => ({
        property: `row[${p.row}].${p.column}`,
        constraints: { import: p.message },
      })),
      otherErrors: problems,
    },
  );
}

/**
 * Idempotence on (run, location, sample number): a row already entered with the same result is
 * unchanged; with another result it is a problem (a correction needs a reason, on the run
 * screen); two rows of the file for one sample are a problem of the second.
 */
async function markRepeatedAndEntered(
  db: Queryable,
  facilityId: number,
  parsed: Parsed[],
  problems: TImportProblem[],
  headers: Map<ImportColumnField, string | null>,
  mapping: Mapping,
) {
  const column = headers.get('sampleNumberColumn') ?? mapping.sampleNumberColumn ?? '';
  const keyOf = (runId: number, locationId: number, sample: string) =>
    `${runId}:${locationId}:${sample.toLowerCase()}`;
  const ready = parsed.filter((p) => p.input);
  const seen = new Map<string, number>();
  for (const p of ready) {
    const key = keyOf(p.out.runId!, p.locationId!, p.out.sampleNumber!);
    const first = seen.get(key);
    if (first !== undefined) {
      p.out.status = 'problem';
      problems.push({
        row: p.row,
        column,
        message: `Row ${first} holds the same sample at the same location of the same run`,
      });
    } else seen.set(key, p.row);
  }
  if (ready.length === 0) return;
  const entered = await db.query<{
    run_id: number;
    sampling_location_id: number;
    batch: string;
    censoring: TCensoring;
    raw_value: string;
    unit: TResultUnit;
    sample_type: string;
    analytical_method_id: number;
  }>(
    `select run_id, sampling_location_id, lower(batch_number) as batch, censoring, raw_value, unit,
            sample_type, analytical_method_id
       from sample_results
      where facility_id = $1 and run_id = any($2::int[]) and superseded_by is null
        and lower(batch_number) = any($3::text[])`,
    [
      facilityId,
      [...new Set(ready.map((p) => p.out.runId!))],
      ready.map((p) => p.out.sampleNumber!.toLowerCase()),
    ],
  );
  const byKey = new Map(entered.map((e) => [keyOf(e.run_id, e.sampling_location_id, e.batch), e]));
  for (const p of ready) {
    if (p.out.status !== 'new') continue;
    const e = byKey.get(keyOf(p.out.runId!, p.locationId!, p.out.sampleNumber!));
    if (!e) continue;
    const i = p.input!;
    const same =
      e.censoring === i.censoring &&
      Number(e.raw_value) === i.rawValue &&
      e.unit === i.unit &&
      e.sample_type === i.sampleType &&
      e.analytical_method_id === i.analyticalMethodId;
    if (same) p.out.status = 'unchanged';
    else {
      p.out.status = 'problem';
      problems.push({
        row: p.row,
        column,
        message: `Sample ${p.out.sampleNumber} at ${p.out.location} of ${p.out.runName} is already entered as ${e.censoring === '=' ? '' : `${e.censoring} `}${Number(e.raw_value)} ${e.unit}: correct it on the run screen, with a reason`,
      });
    }
  }
  const unchanged = parsed.filter((p) => p.out.status === 'unchanged');
  if (unchanged.length) await judgementsOf(db, facilityId, unchanged);
}

/** The stored judgement of each row's result (entered now, or before), as the run screen shows it. */
async function judgementsOf(q: Queryable, facilityId: number, rows: Parsed[]) {
  const wanted = rows.filter((p) => p.out.status !== 'problem');
  if (wanted.length === 0) return;
  const found = await q.query<{
    run_id: number;
    sampling_location_id: number;
    batch: string;
    judgement: NonNullable<TImportRow['judgement']>;
  }>(
    `select run_id, sampling_location_id, lower(batch_number) as batch, judgement
       from sample_results
      where facility_id = $1 and run_id = any($2::int[]) and superseded_by is null
        and lower(batch_number) = any($3::text[])`,
    [
      facilityId,
      [...new Set(wanted.map((p) => p.out.runId!))],
      wanted.map((p) => p.out.sampleNumber!.toLowerCase()),
    ],
  );
  for (const p of wanted) {
    const j = found.find(
      (f) =>
        f.run_id === p.out.runId &&
        f.sampling_location_id === p.locationId &&
        f.batch === p.out.sampleNumber!.toLowerCase(),
    )?.judgement;
    if (!j) continue;
    p.out.judgement = {
      limit: j.limit,
      percentOfLimit: j.percentOfLimit,
      censoredBelow: j.censoredBelow,
      passed: j.passed,
      methodNotFit: j.methodNotFit,
      ...(j.reportedCensoring ? { reportedCensoring: j.reportedCensoring } : {}),
      ...(j.reportedValue !== undefined ? { reportedValue: j.reportedValue } : {}),
    };
  }
}
