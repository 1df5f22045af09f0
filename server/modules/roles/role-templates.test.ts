import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRestrictedUser } from '#core/permissions/permission-map.ts';
import { ROLE_TEMPLATES, roleTemplateNamed } from '#core/permissions/role-templates.ts';
import type { TMyPermissions, TRole } from '#core/schemas/roles.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { seededBefore } from '#server/test/migration-db.ts';
import { allFacilityIds, buildUser } from '#server/test/factories.ts';
import { normalisePermissions } from './roles.service.ts';

const t = useFacilityTestServer();

const rolesOf = async (F: string) =>
  (await t.server.request<TRole[]>('GET', `${F}/user_roles`, { token: t.token })).body;

const granted = (role: TRole) =>
  Object.entries(role.permissions).flatMap(([resource, actions]) =>
    Object.entries(actions)
      .filter(([, allowed]) => allowed)
      .map(([action]) => `${resource}.${action}`),
  );

describe('role templates (issue 30)', () => {
  it('exist in every facility with the rights each job needs', async () => {
    const roles = await rolesOf(t.F);
    for (const template of ROLE_TEMPLATES) {
      const role = roles.find((r) => r.name === template.name);
      expect(role?.permissions, template.name).toEqual(template.permissions());
    }
    const byName = (name: string) => new Set(granted(roles.find((r) => r.name === name)!));

    const approver = byName('QA approver');
    expect(approver.has('ApprovalPolicy.Sign')).toBe(true);
    expect(approver.has('AuditLog.Get')).toBe(true);
    expect([...approver].filter((id) => /\.(Add|Modify|Delete|Archive|Set)$/.test(id))).toEqual([
      'ApprovalPolicy.Modify',
    ]);

    const auditor = byName('Read-only auditor');
    expect(auditor.has('AuditLog.Get')).toBe(true);
    expect(auditor.has('Equipment.Get') && auditor.has('UserRole.Get')).toBe(true);
    const auditorWrites = [...auditor].filter(
      (id) => !id.endsWith('.Get') && id !== 'CEReport.GeneratePDF' && id !== 'Master.BulkExport',
    );
    expect(auditorWrites).toEqual([]);

    const engineer = byName('Validation engineer');
    expect(engineer.has('Equipment.Modify') && engineer.has('QualificationTask.Add')).toBe(true);
    expect(engineer.has('ApprovalPolicy.Sign') || engineer.has('UserRole.Add')).toBe(false);

    const operator = byName('Production');
    expect(operator.has('QualificationTask.Modify')).toBe(true);
    expect(operator.has('Equipment.Modify') || operator.has('ApprovalPolicy.Sign')).toBe(false);
    const analyst = byName('Quality Control');
    expect(analyst.has('QualificationTask.Modify') && analyst.has('AnalyticalMethod.Get')).toBe(
      true,
    );
    expect(analyst.has('QualificationTask.Add') || analyst.has('Product.Modify')).toBe(false);

    const administrator = byName('Facility administrator');
    expect(administrator.has('UserRole.Add') && administrator.has('User.Modify')).toBe(true);
  });

  it('keep the spec §6 restriction: a user holding only Quality Control is restricted', async () => {
    const [first] = await allFacilityIds(t.server.db);
    // buildUser takes the facility's role of that name as it is: the template.
    const analyst = await buildUser(t.server.db, {
      facilityIds: [first!],
      roleName: 'Quality Control',
    });
    const token = await t.server.login(analyst.username, analyst.password);
    const res = await t.server.request<TMyPermissions>('GET', `${t.F}/UAM/permissions`, { token });
    expect(res.body.isRestricted).toBe(true);
    expect(res.body.facility).toEqual(roleTemplateNamed('Quality Control')!.permissions());
    expect(isRestrictedUser(['Production', 'Quality Control'])).toBe(true);
    expect(isRestrictedUser(['Production', 'QA approver'])).toBe(false);
  });

  it('are editable roles: a change is saved and audited with its reason', async () => {
    const approver = (await rolesOf(t.F)).find((r) => r.name === 'QA approver')!;
    const permissions = normalisePermissions(approver.permissions);
    permissions.Master!.BulkExport = false;
    const res = await t.server.request<TRole>('POST', `${t.F}/user_roles/${approver.id}`, {
      token: t.token,
      body: {
        name: 'QA approver (site)',
        permissions,
        reason: 'Our QA does not export master data',
        version: approver.version,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'QA approver (site)', version: approver.version + 1 });
    expect(res.body.permissions.Master!.BulkExport).toBe(false);
    const [row] = await t.server.db.query<{
      reason: string;
      old_values: object;
      new_values: object;
    }>(
      `select reason, old_values, new_values from audit_log
        where domain = 'UserRole' and action = 'Update' and entity_id = $1`,
      [String(approver.id)],
    );
    expect(row).toMatchObject({
      reason: 'Our QA does not export master data',
      new_values: { name: 'QA approver (site)', permissions: { 'Master.BulkExport': false } },
    });
  });

  it('each has its Create audit row, and a facility made through the API gets them too', async () => {
    const created = await t.server.db.query<{ entity_id: string; reason: string }>(
      `select a.entity_id, a.reason from audit_log a join roles r on r.id::text = a.entity_id
        where a.domain = 'UserRole' and a.action = 'Create' and a.facility_id = $1
          and r.facility_id = $1 and a.reason like 'Role template: %'`,
      [t.facilityId],
    );
    expect(created.map((row) => row.reason).sort()).toEqual(
      ROLE_TEMPLATES.map((template) => `Role template: ${template.job}`).sort(),
    );

    const [group] = await t.server.db.query<{ id: number }>(
      'select id from facility_groups where plan_id = $1 order by id limit 1',
      [t.planId],
    );
    const res = await t.server.request<{ id: number }>(
      'POST',
      `/api/v2/plans/${t.planId}/facilities`,
      {
        token: t.token,
        body: {
          name: 'Sterile Plant',
          productType: 'product',
          tier: 'full',
          facilityGroupId: group!.id,
        },
      },
    );
    expect(res.status).toBe(200);
    const names = (await rolesOf(`/api/v2/plans/${t.planId}/facilities/${res.body.id}`)).map(
      (r) => r.name,
    );
    expect(names.sort()).toEqual(
      ['Administrator', ...ROLE_TEMPLATES.map((template) => template.name)].sort(),
    );
  });
});

describe('migration 20261210110000 (role templates for existing facilities)', () => {
  let db: Db;
  let facilityId: number;
  beforeAll(async () => {
    ({ db } = await seededBefore('20261210110000'));
    // A facility made before the templates existed, and one that already named a role so.
    const [old] = await db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       select plan_id, id, 'Old Plant', 'product', 'full' from facility_groups order by id limit 1
       returning id`,
    );
    facilityId = old!.id;
    await db.query(
      `insert into roles (facility_id, name, permissions) values ($1, 'QA approver', '{}')`,
      [facilityId],
    );
    await migrate(db);
  }, 240_000);
  afterAll(async () => {
    await db?.close();
  });

  it('gives them the templates as core defines them, audited, keeping a role of the same name', async () => {
    const rows = await db.query<{ id: number; name: string; permissions: TRole['permissions'] }>(
      'select id, name, permissions from roles where facility_id = $1 order by id',
      [facilityId],
    );
    expect(rows.map((r) => r.name).sort()).toEqual(ROLE_TEMPLATES.map((x) => x.name).sort());
    for (const row of rows) {
      const expected = row.name === 'QA approver' ? {} : roleTemplateNamed(row.name)!.permissions();
      expect(row.permissions, row.name).toEqual(expected);
    }
    const audited = await db.query<{ entity_id: string; new_values: { name: string } }>(
      `select entity_id, new_values from audit_log
        where facility_id = $1 and domain = 'UserRole' and action = 'Create'`,
      [facilityId],
    );
    expect(audited.map((a) => a.new_values.name).sort()).toEqual(
      ROLE_TEMPLATES.map((x) => x.name)
        .filter((name) => name !== 'QA approver')
        .sort(),
    );
    const [chain] = await db.query<{ ok: boolean }>(
      `select count(*) = count(distinct seq) as ok from audit_log where facility_id = $1`,
      [facilityId],
    );
    expect(chain?.ok).toBe(true);
    // The seeded facilities had theirs from the seed: none twice.
    const [twice] = await db.query<{ n: number }>(
      `select count(*)::int as n from (select facility_id, name from roles
        group by facility_id, name having count(*) > 1) d`,
    );
    expect(twice?.n).toBe(0);
  });
});
