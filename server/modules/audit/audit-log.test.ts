import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith, type BuiltUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { auditExportLimits } from './audit-log.routes.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';

let server: TestServer;
let admin: string;
let plan: number;
let plantA: number;
let plantB: number;
let jane: BuiltUser;
let janeToken: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  const rows = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id',
  );
  plan = rows[0]!.plan_id;
  plantA = rows[0]!.id;
  plantB = rows[1]!.id;
  // Jane may read the audit log of plant A only.
  jane = await buildUser(server.db, {
    facilityIds: [plantA],
    permissions: permissionsWith({ AuditLog: ['Get'] }),
  });
  await server.db.query(`update users set first_name = 'Jane', last_name = 'Doe' where id = $1`, [
    jane.id,
  ]);
  janeToken = await server.login(jane.username, jane.password);
  await seed();
});
afterAll(async () => {
  await server?.close();
});

const actor = (userId: number, userName: string): Actor => ({
  userId,
  userName,
  ip: null,
  userAgent: null,
  requestId: null,
});

/** Equipment rows in both plants, by two people; a plan-wide PasswordPolicy row. */
async function seed(): Promise<void> {
  await server.db.transaction(async (tx) => {
    for (let i = 1; i <= 12; i += 1) {
      await writeAudit(tx, actor(jane.id, 'Jane Doe'), {
        planId: plan,
        facilityId: plantA,
        domain: 'Equipment',
        action: i % 3 === 0 ? 'Archive' : 'Update',
        entityId: `EQ-${i}`,
        reason: `Reason A${i}`,
        oldValues: { surfaceArea: i },
        newValues: { surfaceArea: i + 1 },
      });
    }
    await writeAudit(tx, actor(1, 'System Administrator'), {
      planId: plan,
      facilityId: plantB,
      domain: 'Equipment',
      action: 'Update',
      entityId: 'EQ-B1',
      reason: 'Plant B change',
      oldValues: { name: 'Old mixer' },
      newValues: { name: 'New mixer' },
    });
    await writeAudit(tx, actor(1, 'System Administrator'), {
      planId: plan,
      domain: 'PasswordPolicy',
      action: 'Update',
      reason: 'Plan-wide change',
      oldValues: { minPasswordLength: 8 },
      newValues: { minPasswordLength: 12 },
    });
  });
}

interface Page {
  total: number;
  pageNumber: number;
  pageLimit: number;
  data: {
    userName: string | null;
    domain: string;
    action: string;
    entityId: string | null;
    facilityId: number | null;
    facilityName: string | null;
    reason: string | null;
    oldValues: Record<string, unknown> | null;
    newValues: Record<string, unknown> | null;
    at: string;
  }[];
}

const list = (query: string, token = admin) =>
  server.request<Page>('GET', `/api/v2/audit_logs?${query}`, { token });

describe('GET /api/v2/audit_logs', () => {
  it('refuses a user without AuditLog Get (403 NotAllowed)', async () => {
    const user = await buildUser(server.db, { permissions: permissionsWith({ User: ['Get'] }) });
    const res = await list('', await server.login(user.username, user.password));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('answers a page, newest first, with who, when, what, why and old and new values', async () => {
    const res = await list('domains=Equipment&pageLimit=5&pageNumber=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 13, pageNumber: 1, pageLimit: 5 });
    expect(res.body.data).toHaveLength(5);
    const dated = res.body.data.map((r) => r.at);
    expect([...dated].sort().reverse()).toEqual(dated);
    const row = res.body.data.find((r) => r.entityId === 'EQ-B1');
    expect(row).toMatchObject({
      userName: 'System Administrator',
      domain: 'Equipment',
      action: 'Update',
      facilityId: plantB,
      facilityName: 'API Plant',
      reason: 'Plant B change',
      oldValues: { name: 'Old mixer' },
      newValues: { name: 'New mixer' },
    });
    const page3 = await list('domains=Equipment&pageLimit=5&pageNumber=3');
    expect(page3.body.data).toHaveLength(3);
  });

  it('applies each filter only when it is set', async () => {
    expect((await list('domains=Equipment&actions=Archive')).body.total).toBe(4);
    expect((await list(`domains=Equipment&userIds=${jane.id}`)).body.total).toBe(12);
    expect((await list(`domains=Equipment&userIds=${jane.id},1`)).body.total).toBe(13);
    expect((await list(`domains=Equipment&userIds=${jane.id}&userIds=1`)).body.total).toBe(13);
    expect((await list(`domains=Equipment&facilityId=${plantB}`)).body.total).toBe(1);
    expect((await list('domains=Equipment,PasswordPolicy&actions=Update')).body.total).toBe(10);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`domains=Equipment&startDate=${today}&endDate=${today}`)).body.total).toBe(
      13,
    );
    expect((await list('domains=Equipment&endDate=2020-01-01')).body.total).toBe(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await list(`domains=Equipment&startDate=${encodeURIComponent(future)}`)).body.total,
    ).toBe(0);
  });

  it('shows a reader only the facilities where they hold AuditLog Get, plus plan-wide rows', async () => {
    const res = await list('domains=Equipment,PasswordPolicy&pageLimit=100', janeToken);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(13);
    expect(res.body.data.some((r) => r.facilityId === plantB)).toBe(false);
    expect(res.body.data.some((r) => r.domain === 'PasswordPolicy')).toBe(true);
    const refused = await list(`facilityId=${plantB}`, janeToken);
    expect(refused.status).toBe(403);
  });

  it('refuses malformed filters with messages on the fields', async () => {
    const res = await server.request<{ errors: { property: string }[] }>(
      'GET',
      '/api/v2/audit_logs?startDate=yesterday&pageLimit=0',
      { token: admin },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.property).sort()).toEqual(['pageLimit', 'startDate']);
    const reversed = await list('startDate=2026-02-01&endDate=2026-01-01');
    expect(reversed.status).toBe(422);
  });
});

describe('GET /api/v2/audit_logs/users', () => {
  it('refuses a user without AuditLog Get (403 NotAllowed)', async () => {
    const user = await buildUser(server.db);
    const res = await server.request('GET', '/api/v2/audit_logs/users', {
      token: await server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('lists the users of the plan to filter by', async () => {
    const res = await server.request<{ users: { id: number; firstName: string }[] }>(
      'GET',
      '/api/v2/audit_logs/users',
      { token: janeToken },
    );
    expect(res.status).toBe(200);
    expect(res.body.users).toContainEqual({
      id: jane.id,
      firstName: 'Jane',
      lastName: 'Doe',
      username: jane.username,
    });
  });
});

describe('GET /api/v2/audit_logs/filter-options', () => {
  it('refuses a user without AuditLog Get (403 NotAllowed)', async () => {
    const user = await buildUser(server.db);
    const res = await server.request('GET', '/api/v2/audit_logs/filter-options', {
      token: await server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('lists the domains, actions and facilities the caller may filter by', async () => {
    const res = await server.request<{
      domains: string[];
      actions: string[];
      facilities: { id: number }[];
    }>('GET', '/api/v2/audit_logs/filter-options', { token: janeToken });
    expect(res.body.domains).toEqual(expect.arrayContaining(['Equipment', 'PasswordPolicy']));
    expect(res.body.actions).toEqual(expect.arrayContaining(['Archive', 'Update']));
    expect(res.body.facilities.map((f) => f.id)).toEqual([plantA]);
  });
});

describe('GET /api/v2/audit_logs/export', () => {
  const exportPdf = (query: string, token = admin) =>
    fetch(`${server.url}/api/v2/audit_logs/export?${query}`, { headers: { token } });

  it('refuses a user without AuditLog Get (403 NotAllowed)', async () => {
    const user = await buildUser(server.db, { permissions: permissionsWith({ User: ['Get'] }) });
    const res = await exportPdf(
      `currentFacilityId=${plantA}`,
      await server.login(user.username, user.password),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ errName: 'NotAllowed' });
  });

  it('refuses a current facility where the caller may not read the audit log (403)', async () => {
    expect((await exportPdf(`currentFacilityId=${plantB}`, janeToken)).status).toBe(403);
  });

  it('requires currentFacilityId (422)', async () => {
    const res = await exportPdf('domains=Equipment');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      errors: [expect.objectContaining({ property: 'currentFacilityId' })],
    });
  });

  it('exports the filtered rows as Audit Logs.pdf in the facility’s date and time settings', async () => {
    await server.db.query(
      `update facilities set timezone = 'Asia/Kolkata', date_format = 'DD-MM-YYYY',
              time_format = 'HH:mm:ss' where id = $1`,
      [plantA],
    );
    const res = await exportPdf(`currentFacilityId=${plantA}&domains=Equipment&actions=Archive`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="Audit Logs.pdf"');
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('Audit Logs');
    expect(text).toContain('Oral Solid Dosage Plant');
    expect(text).toContain('Filters: Domains: Equipment; Actions: Archive');
    // Issue 30: words, never codes, record ids, ISO times or JSON.
    expect(forbiddenTextReport('Audit Logs.pdf', text)).toBe('');
    expect(text).toContain('4 rows');
    for (const i of [3, 6, 9, 12]) {
      expect(text).toContain(`Equipment EQ-${i}`);
      expect(text).toContain(`Reason A${i}`);
      expect(text).toContain(`Surface area: was ${i}, now ${i + 1}`);
    }
    expect(text).not.toContain('Reason A1\n');
    expect(text).not.toContain('Plant B change');
    expect(text).toContain('Jane Doe');
    const [first] = await server.db.query<{ at: string }>(
      `select to_char(at at time zone 'Asia/Kolkata', 'DD-MM-YYYY HH24:MI:SS') as at
         from audit_log where entity_id = 'EQ-3'`,
    );
    expect(text.replace(/\s+/g, ' ')).toContain(first!.at);
    const [audit] = await server.db.query<{ new_values: { rows: number } }>(
      `select new_values from audit_log where domain = 'AuditLog' and action = 'Export'
        order by id desc limit 1`,
    );
    expect(audit?.new_values.rows).toBe(4);
  });

  it('prints its date filters in the facility’s date format, never as ISO dates', async () => {
    await server.db.query(
      `update facilities set timezone = 'Asia/Kolkata', date_format = 'DD-MM-YYYY',
              time_format = 'HH:mm:ss' where id = $1`,
      [plantA],
    );
    const res = await exportPdf(
      `currentFacilityId=${plantA}&domains=Equipment&startDate=2026-01-02&endDate=2099-12-31`,
    );
    expect(res.status).toBe(200);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('From: 02-01-2026; To: 31-12-2099');
    expect(flat).not.toContain('2026-01-02');
    expect(flat).not.toContain('2099-12-31');
    // A moment as a bound is written on the facility's wall clock, with its time.
    const moment = await exportPdf(
      `currentFacilityId=${plantA}&domains=Equipment&startDate=2026-01-02T00:00:00Z`,
    );
    expect(moment.status).toBe(200);
    const momentText = (await readPdfText(new Uint8Array(await moment.arrayBuffer()))).text;
    expect(momentText.replace(/\s+/g, ' ')).toContain('From: 02-01-2026 05:30:00');
    expect(forbiddenTextReport('Audit Logs.pdf', momentText)).toBe('');
  });

  it('keeps answering other requests while a large export renders', async () => {
    await server.db.query(
      `insert into audit_log (chain, seq, plan_id, facility_id, user_id, user_name, domain, action,
                              entity_id, reason, old_values, new_values, prev_hash, hash)
       select null, 0, $1, $2, $3, 'Jane Doe', 'Bulk', 'Update', 'B-' || g, 'Bulk reason ' || g,
              jsonb_build_object('value', g), jsonb_build_object('value', g + 1), '', ''
         from generate_series(1, 3000) g`,
      [plan, plantA, jane.id],
    );
    // The test shares the server's event loop: a timer that keeps firing shows the loop free.
    // Rendering 3,000 rows takes seconds; in the main thread it would be one long gap.
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    const health = server.request('GET', '/api/v2/health');
    const res = await exportPdf(`currentFacilityId=${plantA}&domains=Bulk`);
    const pdf = new Uint8Array(await res.arrayBuffer());
    const took = performance.now() - started;
    clearInterval(timer);
    expect(res.status).toBe(200);
    expect((await health).status).toBe(200);
    expect(longestGap).toBeLessThan(took * 0.4);
    const { text, pages } = await readPdfText(pdf);
    expect(text).toContain('3000 rows');
    expect(text).toMatch(/Bulk reason 1 Value: was 1, now 2/);
    expect(text).toContain('Bulk reason 3000');
    expect(pages).toBeGreaterThan(20);
  });

  it('refuses an export of more rows than the limit, with advice to narrow it', async () => {
    const limit = auditExportLimits.maxRows;
    auditExportLimits.maxRows = 2_999;
    try {
      const res = await exportPdf(`currentFacilityId=${plantA}&domains=Bulk`);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        errName: 'DataValidationError',
        errors: [
          {
            property: 'endDate',
            constraints: {
              tooMany:
                '3000 rows match; an export holds at most 2999. Narrow the dates or other filters.',
            },
          },
        ],
      });
    } finally {
      auditExportLimits.maxRows = limit;
    }
  });
});
