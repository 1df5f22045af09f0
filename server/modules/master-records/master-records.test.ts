import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

/**
 * Each declared entity of this area: a valid record, the unique field and a second value for it,
 * an edit, a bad value with the property it is reported on, and the permission that lists it.
 */
const CASES = [
  {
    path: 'product_types',
    domain: 'ProductType',
    resource: ['ProductType', 'Get'],
    valid: { name: 'Oral solid', code: 'OS', routeOfAdministration: 'Oral', isSterile: false },
    unique: ['name', 'Sterile injectable'],
    edit: { isSterile: true },
    bad: [{ routeOfAdministration: 'Sublingual' }, 'routeOfAdministration'],
  },
  {
    path: 'rpn_categories',
    domain: 'RPNCategory',
    resource: ['RPNCategory', 'Get'],
    valid: {
      name: 'Solubility',
      variable: 'solubility',
      dimension: 'Severity',
      levels: [
        { label: 'Freely soluble', score: 1 },
        { label: 'Insoluble', score: 5 },
      ],
    },
    unique: ['variable', 'toxicity'],
    edit: { dimension: 'Occurrence' },
    bad: [{ levels: [{ label: 'High', score: 11 }] }, 'levels[0].score'],
  },
  {
    path: 'rpn_formulas',
    domain: 'RPNFormula',
    resource: ['RPNFormula', 'Get'],
    valid: { name: 'RPN', expression: 'severity * occurrence * detectability' },
    unique: ['name', 'Weighted RPN'],
    edit: { expression: 'max(severity, 2) * occurrence ^ 2' },
    bad: [{ expression: 'severity * (occurrence' }, 'expression'],
  },
  {
    path: 'mac-formulas',
    domain: 'MACFormula',
    resource: ['MACFormula', 'Get'],
    valid: { name: 'Site dose criterion', expression: 'TDD * MBS / (5000 * MDD)' },
    unique: ['name', 'Visual criterion'],
    edit: { expression: 'min(HBEL, TDD / SF) * MBS / MDD' },
    bad: [{ expression: 'HBEL * MBS' }, 'expression'],
  },
  {
    path: 'selection-criteria',
    domain: 'SelectionCriteria',
    resource: ['SelectionCriteria', 'Get'],
    valid: { criteriaId: 'SC-01', name: 'Most toxic', basis: 'Lowest PDE', priority: 1 },
    unique: ['criteriaId', 'SC-02'],
    edit: { appliesTo: 'Equipment group' },
    bad: [{ priority: 0 }, 'priority'],
  },
  {
    path: 'sampling-types',
    domain: 'SamplingType',
    resource: ['SamplingMethod', 'Get'],
    valid: { name: 'Large swab', sampleType: 'swab', swabArea: { value: 100, unit: 'sqcm' } },
    unique: ['name', 'Small swab'],
    edit: { recoveryPercentage: 80 },
    bad: [{ rinseVolume: { value: 1, unit: 'sqcm' } }, 'rinseVolume.unit'],
  },
  {
    path: 'microbial-analytical-method',
    domain: 'MicrobialMethod',
    resource: ['AnalyticalMethod', 'Get'],
    valid: { name: 'Bioburden swab', testType: 'TAMC', resultUnit: 'CFU/swab' },
    unique: ['name', 'Endotoxin rinse'],
    edit: { recoveryPercentage: 70 },
    bad: [{ resultUnit: 'ppm' }, 'resultUnit'],
  },
  {
    path: 'sop',
    domain: 'SOP',
    resource: ['CleaningProcedure', 'Get'],
    valid: {
      sopNumber: 'SOP-CL-001',
      name: 'Manual cleaning of blenders',
      effectiveDate: '2026-01-15',
    },
    unique: ['sopNumber', 'SOP-CL-002'],
    edit: { revision: '02' },
    bad: [{ effectiveDate: '2026-02-30' }, 'effectiveDate'],
  },
  {
    path: 'document-version',
    domain: 'DocumentVersion',
    resource: ['ReportDocument', 'Get'],
    valid: {
      documentNumber: 'CVP-001',
      name: 'Cleaning validation protocol, granulation',
      documentType: 'Protocol',
      currentVersion: '1.0',
    },
    unique: ['documentNumber', 'CVP-002'],
    edit: { currentVersion: '1.1' },
    bad: [{ documentType: 'Memo' }, 'documentType'],
  },
  {
    path: 'legacy-documents',
    domain: 'LegacyDocument',
    resource: ['ReportDocument', 'Get'],
    valid: {
      documentNumber: 'LEG-1998-04',
      name: 'Cleaning validation report, line 2',
      fileName: 'line2-cv.pdf',
      fileType: 'pdf',
      issuedDate: '1998-04-02',
    },
    unique: ['documentNumber', 'LEG-1999-01'],
    edit: { storageLocation: 'Archive room B, box 12' },
    bad: [{ fileType: 'exe' }, 'fileType'],
  },
  {
    path: 'moc',
    domain: 'MOC',
    resource: ['ReportDocument', 'Get'],
    valid: {
      mocNumber: 'CC-2026-017',
      name: 'New product on line 1',
      changeType: 'New product',
      status: 'Open',
    },
    unique: ['mocNumber', 'CC-2026-018'],
    edit: { status: 'Under assessment', requiresRevalidation: true },
    bad: [{ targetDate: '17/03/2026' }, 'targetDate'],
  },
] as const;

describe.each(CASES)('$path', (c) => {
  const path = () => `${t.F}/${c.path}`;

  it('is refused without its permission, and listed with it', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', path(), undefined, as)).status).toBe(403);
    expect((await t.call('POST', path(), c.valid, as)).status).toBe(403);
    const [resource, action] = c.resource;
    const reader = await buildUser(t.server.db, {
      permissions: permissionsWith({ [resource]: [action] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    expect((await t.call('GET', path(), undefined, readerToken)).status).toBe(200);
    expect((await t.call('POST', path(), c.valid, readerToken)).status).toBe(403);
  });

  it('creates, refuses duplicates and bad input, edits with a reason, archives and restores', async () => {
    const [bad, property] = c.bad;
    const refused = await t.call('POST', path(), { ...c.valid, ...bad });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: Body) => e.property)).toEqual([property]);

    const created = await t.call('POST', path(), c.valid);
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ ...c.valid, version: 1 });
    const id = created.body.result.id;
    const [field, other] = c.unique;
    // Only the unique field under test repeats (in another case); other unique fields differ.
    const dup = await t.call('POST', path(), {
      ...c.valid,
      ...(field === 'name' ? {} : { name: `${c.valid.name} (copy)` }),
      [field]: String(c.valid[field as keyof typeof c.valid]).toUpperCase(),
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: field }],
    });

    const badEdit = await t.call('POST', `${path()}/${id}`, { ...bad, version: 1, reason: 'x' });
    expect(badEdit.body.errors[0].property).toBe(property);
    const edited = await t.call('POST', `${path()}/${id}`, {
      ...c.edit,
      version: 1,
      reason: 'Reviewed',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ ...c.edit, version: 2 });
    const [audit] = await t.server.db.query<Body>(
      `select reason, new_values from audit_log where domain = $1 and action = 'Update' and entity_id = $2`,
      [c.domain, String(id)],
    );
    expect(audit).toEqual({ reason: 'Reviewed', new_values: c.edit });
    const stale = await t.call('POST', `${path()}/${id}`, { ...c.edit, version: 1, reason: 'x' });
    expect(stale.body.errName).toBe('VersionConflictError');

    const archived = await t.call('PUT', `${path()}/${id}/archive`, { reason: 'Superseded' });
    expect(archived.body.result.archiveReason).toBe('Superseded');
    expect(
      (await t.call('GET', `${t.F}/archived/${c.path}`)).body.data.map((r: Body) => r.id),
    ).toEqual([id]);
    const reuse = await t.call('POST', path(), c.valid);
    expect(reuse.body.errName).toBe('ArchivedEntryError');
    const second = await t.call('POST', path(), {
      ...c.valid,
      [field]: other,
      name: `${c.valid.name} 2`,
    });
    expect(second.status).toBe(200);
    const restored = await t.call('POST', `${path()}/${id}`, { unArchive: true, reason: 'Back' });
    expect(restored.body.result.archivedAt).toBeNull();
  });
});

describe('entities of this area with rules of their own', () => {
  it('start every facility with a swab and a rinse sampling type', async () => {
    const list = await t.call('GET', `${t.F}/sampling-types?pageLimit=100`);
    expect(list.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Swab',
          sampleType: 'swab',
          swabArea: { value: 25, unit: 'sqcm' },
        }),
        expect.objectContaining({
          name: 'Rinse',
          sampleType: 'rinse',
          rinseVolume: { value: 1, unit: 'L' },
        }),
      ]),
    );
  });

  it('guard documents by ReportDocument: Generate creates, Modify edits and archives', async () => {
    const maker = await buildUser(t.server.db, {
      permissions: permissionsWith({ ReportDocument: ['Get', 'Generate'] }),
    });
    const as = await t.server.login(maker.username, maker.password);
    const created = await t.call(
      'POST',
      `${t.F}/moc`,
      { mocNumber: 'CC-9', name: 'Batch size up', changeType: 'Batch size change', status: 'Open' },
      as,
    );
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(
      (await t.call('POST', `${t.F}/moc/${id}`, { status: 'Closed', version: 1, reason: 'x' }, as))
        .status,
    ).toBe(403);
    expect((await t.call('PUT', `${t.F}/moc/${id}/archive`, { reason: 'x' }, as)).status).toBe(403);
  });

  it('edits selection criteria by PUT {id} as by POST {id}', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ SelectionCriteria: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const created = await t.call('POST', `${t.F}/selection-criteria`, {
      criteriaId: 'SC-PUT',
      name: 'Least soluble',
      basis: 'Lowest solubility',
    });
    const id = created.body.result.id;
    expect(
      (
        await t.call(
          'PUT',
          `${t.F}/selection-criteria/${id}`,
          { priority: 2, version: 1, reason: 'x' },
          as,
        )
      ).status,
    ).toBe(403);
    const edited = await t.call('PUT', `${t.F}/selection-criteria/${id}`, {
      priority: 2,
      version: 1,
      reason: 'Second criterion',
    });
    expect(edited.body.result).toMatchObject({ priority: 2, version: 2 });
    const stale = await t.call('PUT', `${t.F}/selection-criteria/${id}`, {
      priority: 3,
      version: 1,
      reason: 'x',
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const formula = await t.call('POST', `${t.F}/selection-criteria/${id}`, {
      rpnFormulaId: 424242,
      version: 2,
      reason: 'x',
    });
    expect(formula.body.errors[0].property).toBe('rpnFormulaId');
  });

  it('refuses formula variables that are not names, and reports formula syntax precisely', async () => {
    const bad = await t.call('POST', `${t.F}/rpn_categories`, { name: 'Dose', variable: '2dose' });
    expect(bad.body.errors[0]).toMatchObject({ property: 'variable' });
    const fn = await t.call('POST', `${t.F}/rpn_formulas`, {
      name: 'F',
      expression: 'exp(severity)',
    });
    expect(fn.body.errors[0].constraints).toEqual({
      custom: expect.stringContaining("unknown function 'exp'"),
    });
    const stray = await t.call('POST', `${t.F}/rpn_formulas`, {
      name: 'F',
      expression: 'a * b $ c',
    });
    expect(stray.body.errors[0].constraints.custom).toContain("unexpected '$' at position 7");
  });
});
