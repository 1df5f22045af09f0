import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { runName } from '../runs/runs.read.ts';

/*
 * Results from the laboratory (issue 33) over HTTP on the real database: a file read with a
 * laboratory's saved mapping, previewed row by row with the run screen's judgement, entered in
 * one transaction or not at all, and entered once however often it is imported.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event } = kit;
let f: RunFacility;
let mappingId: number;
beforeAll(async () => {
  f = await kit.build();
  const created = await ok('POST', '/results/import-mappings', LAB_A);
  mappingId = created.result.id;
});

const LAB_A = {
  name: 'Lab A LIMS',
  laboratory: 'QC laboratory A',
  runColumn: 'Run',
  studyColumn: 'Study',
  locationColumn: 'Location',
  sampleNumberColumn: 'Sample ID',
  sampleTypeColumn: 'Type',
  methodColumn: 'Method',
  reportedColumn: 'Reported',
  valueColumn: 'Result',
  unitColumn: 'Unit',
  sampledAtColumn: 'Sampled',
  analysedAtColumn: 'Analysed',
  analystColumn: 'Analyst',
};
const HEADER =
  'Run,Study,Location,Sample ID,Type,Method,Reported,Result,Unit,Sampled,Analysed,Analyst';

let sample = 0;
const nextSample = () => {
  sample += 1;
  return `LAB-${process.pid}-${sample}`;
};

/** A CSV line of a result: the run's name, the location, a value as `times` × its limit. */
function line(
  run: Body,
  location: 'Valve' | 'Gasket',
  times: number,
  over: Partial<
    Record<
      'run' | 'study' | 'sample' | 'reported' | 'unit' | 'value' | 'method' | 'type' | 'sampled',
      string
    >
  > = {},
) {
  const id = location === 'Valve' ? f.steel : f.ptfe;
  const limit = (run.plan as Body[]).find((p) => p.samplingLocationId === id)!.limit as number;
  const value = over.value ?? String(limit * times);
  return [
    over.run ?? run.name,
    over.study ?? '',
    location,
    over.sample ?? nextSample(),
    over.type ?? 'swab',
    over.method ?? 'HPLC-1',
    over.reported ?? '=',
    value,
    over.unit ?? 'mg/swab',
    over.sampled ?? '2026-11-02 09:00',
    '2026-11-03T10:30:00Z',
    'A. Analyst',
  ].join(',');
}

const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');

function importFile(
  body: string | Buffer,
  options: {
    dryRun?: boolean;
    mapping?: number;
    type?: string;
    token?: string;
    bearer?: string;
  } = {},
) {
  const query = `mappingId=${options.mapping ?? mappingId}&dryRun=${options.dryRun ? 'true' : 'false'}&fileName=lab.csv`;
  return fetch(`${t.server.url}${t.F}/results/import?${query}`, {
    method: 'POST',
    headers: {
      'content-type': options.type ?? 'text/csv',
      ...(options.bearer
        ? { authorization: `Bearer ${options.bearer}` }
        : { token: options.token ?? t.token }),
    },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Body }));
}

const resultCount = async () =>
  Number(
    (
      await t.server.db.query<{ n: string }>(
        'select count(*) as n from sample_results where facility_id = $1',
        [t.facilityId],
      )
    )[0]!.n,
  );

/** A started run of a new study, as GET runs/{id} reads it, with its name. */
async function openRun(): Promise<Body> {
  const run = await newRun(await kit.study());
  const started = await event(run, { startedAt: '2026-11-01T08:00:00Z' });
  const [study] = await t.server.db.query<{ seq: number }>(
    'select seq from studies where id = $1',
    [run.studyId],
  );
  return { ...started, name: runName(study!.seq, run.sequence as number) };
}

describe('results import', () => {
  it('is refused without QualificationTask Modify; the mappings are read with Get', async () => {
    const reader = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const as = await t.server.login(reader.username, reader.password);
    const run = await openRun();
    const before = await resultCount();
    expect((await importFile(csv(line(run, 'Valve', 0.2)), { token: as })).status).toBe(403);
    expect(
      (await importFile(csv(line(run, 'Valve', 0.2)), { token: as, dryRun: true })).status,
    ).toBe(403);
    expect((await call('GET', '/results/import-mappings', undefined, as)).status).toBe(200);
    const made = await call('POST', '/results/import-mappings', { ...LAB_A, name: 'x' }, as);
    expect(made.status).toBe(403);
    expect(await resultCount()).toBe(before);
  });

  it('keeps mappings per laboratory: created, edited and archived with versions and audit rows', async () => {
    const created = await ok('POST', '/results/import-mappings', {
      name: 'Lab B export',
      laboratory: 'Contract lab B',
      studyColumn: 'Study no',
      locationColumn: 'Point',
      sampleNumberColumn: 'Sample',
      valueColumn: 'Value',
      unitColumn: 'Units',
    });
    const id = created.result.id;
    const listed = await ok(
      'GET',
      '/results/import-mappings?pageNumber=1&pageLimit=100&sortBy=name',
    );
    expect(listed.data.map((m: Body) => m.name)).toContain('Lab B export');
    const edited = await ok('POST', `/results/import-mappings/${id}`, {
      valueColumn: 'Amount',
      reason: 'The lab renamed its column',
      version: created.result.version,
    });
    expect(edited.result).toMatchObject({ valueColumn: 'Amount', version: 2 });
    const stale = await call('POST', `/results/import-mappings/${id}`, {
      valueColumn: 'Value',
      reason: 'Again',
      version: 1,
    });
    expect(stale.status).toBe(409);
    const neither = await call('POST', '/results/import-mappings', {
      name: 'No run',
      laboratory: 'Lab C',
      locationColumn: 'L',
      sampleNumberColumn: 'S',
      valueColumn: 'V',
      unitColumn: 'U',
    });
    expect(neither.status).toBe(422);
    expect(neither.body.errors.map((e: Body) => e.property)).toContain('runColumn');
    const archived = await call('PUT', `/results/import-mappings/${id}/archive`, {
      reason: 'Lab B no longer used',
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    const versions = await ok('GET', `/results/import-mappings/${id}/versions`);
    expect(JSON.stringify(versions).length).toBeGreaterThan(0);
    const audit = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'ResultsImportMapping' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive']);
    const run = await openRun();
    const refused = await importFile(csv(line(run, 'Valve', 0.2)), { mapping: id });
    expect(refused.status).toBe(409);
    expect(refused.body.errName).toBe('ArchivedEntryError');
  });

  it('previews every row with its judgement and every problem with its row and column, writing nothing', async () => {
    const run = await openRun();
    const before = await resultCount();
    const res = await importFile(
      csv(
        line(run, 'Valve', 0.2),
        line(run, 'Gasket', 2),
        line(run, 'Valve', 0.1, { unit: 'kg' }),
        line(run, 'Valve', 0.1, { reported: '~' }),
        line(run, 'Valve', 0.1, { run: 'ST-9999 run 1' }),
        line(run, 'Valve', 0.1, { value: 'high' }),
      ),
      { dryRun: true },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.rows).toHaveLength(6);
    const [pass, fail] = res.body.rows as Body[];
    expect(pass!).toMatchObject({ row: 2, status: 'new', runId: run.id, location: 'Valve' });
    expect(pass!.judgement.passed).toBe(true);
    expect(fail!.judgement.passed).toBe(false);
    expect(fail!.judgement.percentOfLimit).toBeGreaterThan(100);
    expect(res.body.problems).toEqual([
      { row: 4, column: 'Unit', message: expect.stringContaining('kg is not a result unit') },
      { row: 5, column: 'Reported', message: 'Reported is one of =, < LOD, < LOQ, > upper limit' },
      { row: 6, column: 'Run', message: expect.stringContaining('No run ST-9999 run 1') },
      { row: 7, column: 'Result', message: 'high is not a number of 0 or more' },
    ]);
    expect(res.body.counts).toEqual({ rows: 6, new: 2, unchanged: 0, problems: 4 });
    expect(await resultCount()).toBe(before);
  });

  it('commits nothing when any row has a problem, in the catalogue shape', async () => {
    const run = await openRun();
    const before = await resultCount();
    const res = await importFile(
      csv(line(run, 'Valve', 0.2), line(run, 'Gasket', 0.1, { type: 'rinse', unit: 'mg/swab' })),
    );
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.otherErrors).toEqual([
      { row: 3, column: 'Type', message: 'The plan samples this location by swab' },
      { row: 3, column: 'Unit', message: 'A rinse result is in mg/ml, ug/ml or ppm' },
    ]);
    expect(res.body.errors[0]).toEqual({
      property: 'row[3].Type',
      constraints: { import: 'The plan samples this location by swab' },
    });
    expect(await resultCount()).toBe(before);
    const after = await ok('GET', `/runs/${run.id}`);
    expect(after.run.results).toHaveLength(0);
  });

  it('judges every censoring form exactly as a result typed on the run screen', async () => {
    const imported = await openRun();
    const typed = await openRun();
    const forms = [
      ['=', 0.5],
      ['< LOD', 0.1],
      ['< LOQ', 0.2],
      ['> upper limit', 0.3],
    ] as const;
    const res = await importFile(
      csv(
        ...forms.map(([reported, times], i) =>
          line(imported, i % 2 ? 'Gasket' : 'Valve', times, {
            reported,
            sample: `IMP-${process.pid}-${i}`,
          }),
        ),
      ).replace(/\r\n/g, '\n'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.counts).toMatchObject({ new: 4, problems: 0 });
    // The same values typed, split over two entries as a screen would send them.
    const limitOf = (id: number) =>
      (typed.plan as Body[]).find((p) => p.samplingLocationId === id)!.limit as number;
    for (const [i, [censoring, times]] of forms.entries()) {
      const location = i % 2 ? f.ptfe : f.steel;
      await ok('POST', `/runs/${typed.id}/results`, {
        results: [
          {
            key: `t${i}`,
            samplingLocationId: location,
            sampleType: 'swab',
            analyticalMethodId: f.method,
            batchNumber: `TYP-${process.pid}-${i}`,
            censoring,
            rawValue: limitOf(location) * times,
            unit: 'mg/swab',
          },
        ],
      });
    }
    const a = (await ok('GET', `/runs/${imported.id}`)).run.results as Body[];
    const b = (await ok('GET', `/runs/${typed.id}`)).run.results as Body[];
    expect(a.map((r) => r.censoring)).toEqual(forms.map(([c]) => c));
    expect(a.map((r) => r.judgement)).toEqual(b.map((r) => r.judgement));
    expect(a[3]!.judgement.passed).toBe(false);
    expect(a[0]).toMatchObject({
      analyst: 'A. Analyst',
      analysedAt: '2026-11-03T10:30:00.000Z',
      takenAt: '2026-11-02T09:00:00.000Z',
    });
    expect((res.body.rows as Body[]).map((r) => r.judgement.passed)).toEqual(
      b.map((r) => r.judgement.passed),
    );
    const [audit] = await t.server.db.query<{ new_values: Body; reason: string }>(
      `select new_values, reason from audit_log where domain = 'SampleResult' and action = 'Import'
        order by seq desc limit 1`,
    );
    expect(audit).toMatchObject({
      reason: 'Imported from lab.csv',
      new_values: { entered: 4, unchanged: 0, mapping: 'Lab A LIMS' },
    });
  });

  it('enters a file once however often it is imported, and refuses duplicates and changed results', async () => {
    const run = await openRun();
    const file = csv(line(run, 'Valve', 0.2), line(run, 'Gasket', 0.3));
    const first = await importFile(file);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.counts).toMatchObject({ new: 2, unchanged: 0 });
    const count = await resultCount();
    const again = await importFile(file);
    expect(again.status).toBe(200);
    expect(again.body.counts).toMatchObject({ new: 0, unchanged: 2, problems: 0 });
    expect((again.body.rows as Body[]).every((r) => r.judgement?.passed === true)).toBe(true);
    expect(await resultCount()).toBe(count);
    // The same sample twice in one file, and a known sample with another value.
    const sampleId = file.split('\r\n')[1]!.split(',')[3]!;
    const dup = nextSample();
    const res = await importFile(
      csv(
        line(run, 'Valve', 0.9, { sample: sampleId }),
        line(run, 'Gasket', 0.1, { sample: dup }),
        line(run, 'Gasket', 0.1, { sample: dup }),
      ),
    );
    expect(res.status).toBe(422);
    expect(res.body.otherErrors).toEqual([
      {
        row: 2,
        column: 'Sample ID',
        message: expect.stringMatching(/is already entered as .* correct it on the run screen/),
      },
      {
        row: 4,
        column: 'Sample ID',
        message: 'Row 3 holds the same sample at the same location of the same run',
      },
    ]);
    expect(await resultCount()).toBe(count);
    // A sample number another run already used: the entry's own uniqueness rule.
    const other = await openRun();
    const taken = await importFile(csv(line(other, 'Valve', 0.1, { sample: sampleId })));
    expect(taken.status).toBe(422);
    expect(taken.body.otherErrors).toEqual([
      { row: 2, column: 'Sample ID', message: 'Batch number must be unique across samples' },
    ]);
  });

  it('reads xlsx, finds the run by its study, and refuses a submitted run', async () => {
    const run = await openRun();
    const study = run.name.replace(/ run \d+$/, '');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Results');
    sheet.addRow(HEADER.split(','));
    const values = line(run, 'Valve', 0.2, { run: '', study }).split(',');
    sheet.addRow(values.map((v, i) => (i === 7 ? Number(v) : v)));
    const buffer = Buffer.from(await book.xlsx.writeBuffer());
    const res = await importFile(buffer, {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rows[0]).toMatchObject({ runId: run.id, status: 'new' });
    const missing = await importFile(csv(line(run, 'Valve', 0.2).replace('Valve', '')), {
      dryRun: true,
    });
    expect(missing.body.problems).toEqual([
      { row: 2, column: 'Location', message: 'The location is missing' },
    ]);
    const noColumn = await importFile('Run,Where\nx,y', { dryRun: true });
    expect(noColumn.status).toBe(200);
    expect(noColumn.body.problems).toContainEqual({
      row: 1,
      column: 'Location',
      message: 'The file has no column Location (the location in the mapping Lab A LIMS)',
    });
    expect(noColumn.body.problems.map((p: Body) => p.column)).not.toContain('Study');
    // A run of a closed study is frozen: each of its rows says so, and nothing is written.
    await kit.closeStudy(run.studyId);
    const before = await resultCount();
    const closed = await importFile(csv(line(run, 'Gasket', 0.2)));
    expect(closed.status).toBe(422);
    expect(closed.body.otherErrors).toEqual([
      {
        row: 2,
        column: 'Run',
        message: expect.stringContaining('is closed: run 1 can no longer change'),
      },
    ]);
    expect(await resultCount()).toBe(before);
  });

  it('takes a service account API token (Bearer) with the rights of its role', async () => {
    const run = await openRun();
    const [role] = await t.server.db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, 'LIMS bridge', $2) returning id`,
      [t.facilityId, JSON.stringify(permissionsWith({ QualificationTask: ['Get', 'Modify'] }))],
    );
    const [readOnly] = await t.server.db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, 'LIMS reader', $2) returning id`,
      [t.facilityId, JSON.stringify(permissionsWith({ QualificationTask: ['Get'] }))],
    );
    const owner = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const tokenOf = async (roleId: number, name: string) => {
      const made = await t.server.request<Body>('POST', '/api/v2/service-accounts', {
        token: t.token,
        body: {
          name,
          ownerId: owner.id,
          facilityRoles: [{ facilityId: t.facilityId, roleIds: [roleId] }],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const issued = await t.server.request<Body>(
        'POST',
        `/api/v2/service-accounts/${made.body.id}/tokens`,
        { token: t.token, body: { name: 'Nightly import', expiresInDays: 30 } },
      );
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      return { token: issued.body.token as string, accountId: made.body.id as number };
    };
    const bridge = await tokenOf(role!.id, `LIMS bridge ${process.pid}`);
    const reader = await tokenOf(readOnly!.id, `LIMS reader ${process.pid}`);
    const file = csv(line(run, 'Valve', 0.2));
    expect((await importFile(file, { bearer: reader.token })).status).toBe(403);
    const res = await importFile(file, { bearer: bridge.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.counts.new).toBe(1);
    const [entered] = await t.server.db.query<{ created_by: number }>(
      `select created_by from sample_results where run_id = $1`,
      [run.id],
    );
    expect(entered!.created_by).toBe(bridge.accountId);
    // The call's row is written as its answer ends (server/http/service-account-calls.ts).
    const calls = () =>
      t.server.db.query<{ action: string }>(
        `select action from audit_log where domain = 'ServiceAccount' and action = 'Call' and user_id = $1`,
        [bridge.accountId],
      );
    await expect.poll(async () => (await calls()).length).toBeGreaterThan(0);
  });

  it("reads decimal commas only when the laboratory's mapping declares them, and refuses what reads two ways", async () => {
    const run = await openRun();
    const comma = await ok('POST', '/results/import-mappings', {
      ...LAB_A,
      name: `Lab EU LIMS ${process.pid}`,
      decimalSeparator: ',',
    });
    expect(comma.result.decimalSeparator).toBe(',');
    // A European LIMS: semicolons between fields, commas in numbers.
    const euro = (text: string) => text.replace(/,/g, ';');
    const withValue = (location: 'Valve' | 'Gasket', value: string) =>
      euro(line(run, location, 0, { value: 'VALUE' })).replace('VALUE', value);
    const limit = (run.plan as Body[]).find((p) => p.samplingLocationId === f.steel)!
      .limit as number;
    const fifth = String(limit / 5).replace('.', ',');
    const res = await importFile(
      [euro(HEADER), withValue('Valve', fifth), withValue('Gasket', '1,234.5')].join('\r\n'),
      { dryRun: true, mapping: comma.result.id },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rows[0]).toMatchObject({ status: 'new', rawValue: limit / 5 });
    // A fifth of the limit, divided by the 80 % recovery: 25 % of the limit.
    expect(res.body.rows[0].judgement.percentOfLimit).toBeCloseTo(25, 6);
    expect(res.body.problems).toEqual([
      {
        row: 3,
        column: 'Result',
        message: expect.stringContaining("1,234.5 is ambiguous with this mapping's decimal comma"),
      },
    ]);
    // The same comma under a mapping of decimal points is refused, never read as 0.12 or 12.
    const point = await importFile(csv(line(run, 'Valve', 0, { value: '"0,12"' })), {
      dryRun: true,
    });
    expect(point.body.problems).toEqual([
      {
        row: 2,
        column: 'Result',
        message: expect.stringContaining(
          '0,12 holds a comma, and this mapping reads a decimal point',
        ),
      },
    ]);
  });

  it("reads a time without an offset in the facility's time zone, and refuses one that names no single instant", async () => {
    const read = await ok('GET', '/date-time-settings');
    const { version, ...settings } = read.dateTimeSettings as Body;
    const setZone = (timezone: string, from: number) =>
      ok('POST', '/date-time-settings', {
        dateTimeSettings: { ...settings, timezone },
        version: from,
        reason: 'Results import test',
      });
    const dublin = await setZone('Europe/Dublin', version as number);
    try {
      const run = await openRun();
      const res = await importFile(
        csv(
          // Irish summer time is UTC+1: 09:00 there is 08:00 UTC.
          line(run, 'Valve', 0.2, { sampled: '2026-07-01 09:00' }),
          line(run, 'Gasket', 0.2, { sampled: '2026-07-01T09:00:00+02:00' }),
          // Clocks go back at 02:00 on 25 October 2026: 01:30 happens twice.
          line(run, 'Valve', 0.2, { sampled: '2026-10-25 01:30' }),
          // Clocks go forward at 01:00 on 29 March 2026: 01:30 never happens.
          line(run, 'Valve', 0.2, { sampled: '2026-03-29 01:30' }),
          line(run, 'Valve', 0.2, { sampled: '02/11/2026 09:00' }),
        ),
        { dryRun: true },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.problems).toEqual([
        {
          row: 4,
          column: 'Sampled',
          message:
            "2026-10-25 01:30 occurs twice in the facility's time zone Europe/Dublin (the clocks go back): write it with its offset",
        },
        {
          row: 5,
          column: 'Sampled',
          message:
            "2026-03-29 01:30 does not occur in the facility's time zone Europe/Dublin (the clocks skip it): write it with its offset",
        },
        {
          row: 6,
          column: 'Sampled',
          message: expect.stringContaining('02/11/2026 09:00 is not a date and time: write it as'),
        },
      ]);
      const done = await importFile(
        csv(
          line(run, 'Valve', 0.2, { sampled: '2026-07-01 09:00' }),
          line(run, 'Gasket', 0.2, { sampled: '2026-07-01T09:00:00+02:00' }),
        ),
      );
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const results = (await ok('GET', `/runs/${run.id}`)).run.results as Body[];
      expect(results.map((r) => r.takenAt)).toEqual([
        '2026-07-01T08:00:00.000Z',
        '2026-07-01T07:00:00.000Z',
      ]);
      // A date cell of a workbook has no zone either: 09:00 as the sheet shows it, in Dublin.
      const other = await openRun();
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Results');
      sheet.addRow(HEADER.split(','));
      const values: (string | number | Date)[] = line(other, 'Valve', 0.2).split(',');
      values[7] = Number(values[7]);
      values[9] = new Date(Date.UTC(2026, 6, 1, 9, 0));
      sheet.addRow(values);
      const xlsx = await importFile(Buffer.from(await book.xlsx.writeBuffer()), {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      });
      expect(xlsx.status, JSON.stringify(xlsx.body)).toBe(200);
      const [fromBook] = (await ok('GET', `/runs/${other.id}`)).run.results as Body[];
      expect(fromBook!.takenAt).toBe('2026-07-01T08:00:00.000Z');
    } finally {
      await setZone(settings.timezone as string, dublin.dateTimeSettings.version as number);
    }
  });

  it('is described in the OpenAPI document with the mappings', async () => {
    const doc = await t.server.request<Body>('GET', '/api/docs/json');
    const paths = doc.body.paths as Record<string, Body>;
    const base = '/api/v2/plans/{plan}/facilities/{facility}/results';
    expect(paths[`${base}/import`]!.post.summary).toMatch(/Import a laboratory's results/);
    expect(Object.keys(paths[`${base}/import`]!.post.requestBody?.content ?? {})).toContain(
      'text/csv',
    );
    expect(paths[`${base}/import-mappings`]!.get).toBeDefined();
    expect(paths[`${base}/import-mappings/{id}/archive`]!.put).toBeDefined();
  });
});
