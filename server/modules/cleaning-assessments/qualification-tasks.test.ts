import { beforeAll, describe, expect, it } from 'vitest';
import type { TCoverageCell } from '#core/schemas/cleaning-assessments.schemas.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { createTasksFromGaps } from './qualification-tasks.ts';

const t = useFacilityTestServer();

interface Signer {
  id: number;
  token: string;
  password: string;
}

let line1: number;
let line2: number;
let products: Record<'A' | 'B' | 'C' | 'D', number>;
let signer: Signer;
let reader: Signer;
let otherF: string;

async function person(rights: Record<string, string[]>): Promise<Signer> {
  const user = await buildUser(t.server.db, { permissions: permissionsWith(rights) });
  return {
    id: user.id,
    token: await t.server.login(user.username, user.password),
    password: user.password,
  };
}

const cell = (
  product: keyof typeof products,
  train: 1 | 2,
  state: TCoverageCell['state'],
  extra: Partial<TCoverageCell> = {},
): TCoverageCell => ({
  product: `Product ${product}`,
  productId: products[product],
  train: `Line ${train}`,
  trainId: train === 1 ? line1 : line2,
  state,
  representative: null,
  currentLimit: null,
  evidence: [],
  ...extra,
});

/** The coverage of an assessment: two gaps on Line 1, one on Line 2, the rest covered. */
const coverage = (): TCoverageCell[] => [
  cell('A', 1, 'study'),
  cell('B', 1, 'notCovered'),
  cell('C', 1, 'tightened', {
    currentLimit: 0.5,
    evidence: [
      {
        kind: 'historicalStudy',
        id: 7,
        name: 'HS-7',
        limitAtStudy: 1.2,
        date: '2025-01-10',
      },
    ],
  }),
  cell('A', 2, 'representative', { representative: 'Product D' }),
  cell('D', 2, 'notCovered'),
  // A cell listed twice gives one task.
  cell('D', 2, 'notCovered'),
];

const run = (evaluationId: number, cells = coverage(), facilityId = t.facilityId) =>
  t.server.db.transaction((tx) =>
    createTasksFromGaps(tx, { facilityId, evaluationId, coverage: cells }),
  );

const list = (query = '', as = t.token) =>
  t.call('GET', `${t.F}/qualification-task${query}`, undefined, as);

const taskOf = async (product: string, status = 'Open') => {
  const res = await list(`?status=${status}&search=${encodeURIComponent(product)}`);
  return res.body.qualificationTasks[0] as Body;
};

const decide = (id: number, body: Record<string, unknown>, as: Signer = signer, base = t.F) =>
  t.call('POST', `${base}/qualification-task/task/${id}`, body, as.token);

const lastAudit = async (domain: string, action?: string) => {
  const [row] = await t.server.db.query<Body>(
    `select action, reason, user_id, entity_id, old_values, new_values from audit_log
      where domain = $1 and ($2::text is null or action = $2) order by id desc limit 1`,
    [domain, action ?? null],
  );
  return row;
};

const failedAttempts = async (userId: number) => {
  const [user] = await t.server.db.query<{ failed_attempts: number }>(
    'select failed_attempts from users where id = $1',
    [userId],
  );
  return user!.failed_attempts;
};

const inDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await setFacilityKind(t.server, 1, { tier: 'full' });
  const create = recordCreator(t.server, t.token, t.F);
  const product = (name: string) =>
    create('products', {
      name,
      maxDailyDose: { value: 100, unit: 'mg' },
      minBatchSize: { value: 10, unit: 'kg' },
    });
  products = {
    A: await product('Product A'),
    B: await product('Product B'),
    C: await product('Product C'),
    D: await product('Product D'),
  };
  line1 = await create('productions', {
    name: 'Line 1',
    equipmentIds: [],
    productIds: [products.A, products.B, products.C],
  });
  line2 = await create('productions', {
    name: 'Line 2',
    equipmentIds: [],
    productIds: [products.A, products.D],
  });
  signer = await person({ QualificationTask: ['Get', 'Modify'] });
  reader = await person({ QualificationTask: ['Get'] });
  otherF = await facilityPath(t.server, 1);
});

describe('qualification tasks', () => {
  it('are refused without the QualificationTask permission', async () => {
    const nobody = await person({});
    expect((await list('', nobody.token)).status).toBe(403);
    expect(
      (await t.call('GET', `${t.F}/qualification-task/entity/1`, undefined, nobody.token)).status,
    ).toBe(403);
    const refused = await decide(1, { action: 'accept', password: 'x', version: 1 }, reader);
    expect(refused.status).toBe(403);
  });

  it('are made from the gaps of an assessment, one Open task per gap, audited', async () => {
    const first = await run(101);
    expect(first.created).toHaveLength(3);
    expect(first.carriedOver).toEqual([]);
    const res = await list('?evaluationId=101');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    const byProduct = Object.fromEntries(
      res.body.qualificationTasks.map((task: Body) => [task.product, task]),
    );
    expect(byProduct['Product B']).toMatchObject({
      evaluationId: 101,
      caseStudyId: line1,
      train: 'Line 1',
      productId: products.B,
      gap: 'notCovered',
      proposedStudyType: 'New Product Introduction',
      scope: 'Product B on train Line 1: no study covers it',
      status: 'Open',
      justification: null,
      decidedBy: null,
      decidedByName: null,
      decidedAt: null,
      version: 1,
    });
    expect(byProduct['Product B'].dueDate).toBe(inDays(30));
    expect(byProduct['Product C']).toMatchObject({
      gap: 'tightened',
      proposedStudyType: 'Verification',
    });
    expect(byProduct['Product C'].scope).toContain('HS-7 (1.2 mg/sqcm), now 0.5 mg/sqcm');
    expect(byProduct['Product D']).toMatchObject({ caseStudyId: line2, gap: 'notCovered' });
    expect(await lastAudit('QualificationTask', 'Create')).toMatchObject({
      entity_id: '101',
      new_values: { evaluationId: 101, created: first.created, carriedOver: [] },
    });
  });

  it('carry an Open task over to a later assessment that finds the same gap, never twice', async () => {
    const before = await list('?pageLimit=100');
    const second = await run(102);
    expect(second.created).toEqual([]);
    expect(second.carriedOver.sort()).toEqual(
      before.body.qualificationTasks.map((task: Body) => task.id).sort(),
    );
    const again = await run(102);
    expect(again).toEqual({ created: [], carriedOver: [] });
    const after = await list('?pageLimit=100');
    expect(after.body.total).toBe(3);
    expect(after.body.qualificationTasks.every((task: Body) => task.evaluationId === 102)).toBe(
      true,
    );
    // The due date is the one the gap was first given.
    expect(after.body.qualificationTasks.map((task: Body) => task.dueDate)).toEqual(
      before.body.qualificationTasks.map((task: Body) => task.dueDate),
    );
    expect((await list('?evaluationId=101')).body.total).toBe(0);
    const [first] = await t.server.db.query<{ n: number }>(
      'select count(*)::int as n from qualification_tasks where first_evaluation_id = 101',
    );
    expect(first!.n).toBe(3);
  });

  it('list by status, search and page', async () => {
    const open = await list('?status=Open&pageLimit=2');
    expect(open.body.total).toBe(3);
    expect(open.body.qualificationTasks).toHaveLength(2);
    const page2 = await list('?status=Open&pageLimit=2&pageNumber=2');
    expect(page2.body.qualificationTasks).toHaveLength(1);
    expect((await list('?status=Dismissed')).body.total).toBe(0);
    const search = await list('?search=line 2');
    expect(search.body.qualificationTasks.map((task: Body) => task.product)).toEqual(['Product D']);
    const sorted = await list('?sortBy=product&sortOrder=desc');
    expect(sorted.body.qualificationTasks.map((task: Body) => task.product)).toEqual([
      'Product D',
      'Product C',
      'Product B',
    ]);
    expect((await list('?status=Closed')).status).toBe(422);
  });

  it('list the tasks of one train (case study), optionally of one assessment', async () => {
    const path = `${t.F}/qualification-task/entity`;
    const one = await t.call('GET', `${path}/${line1}?evaluationId=102`);
    expect(one.status).toBe(200);
    expect(one.body.qualificationTasks.map((task: Body) => task.product).sort()).toEqual([
      'Product B',
      'Product C',
    ]);
    expect((await t.call('GET', `${path}/${line2}`)).body.total).toBe(1);
    expect((await t.call('GET', `${path}/${line1}?evaluationId=101`)).body.total).toBe(0);
    const unknown = await t.call('GET', `${path}/999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errName).toBe('NotFoundError');
    // Another facility's train is not this facility's case study.
    expect((await t.call('GET', `${otherF}/qualification-task/entity/${line1}`)).status).toBe(404);
  });

  it('refuse a dismissal without a justification, before the password is checked', async () => {
    const task = await taskOf('Product D');
    for (const justification of [undefined, '', '   ']) {
      const res = await decide(task.id, {
        action: 'dismiss',
        password: 'wrong password',
        version: task.version,
        ...(justification === undefined ? {} : { justification }),
      });
      expect(res.status).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      expect(res.body.errors.map((e: Body) => e.property)).toEqual(['justification']);
    }
    expect(await failedAttempts(signer.id)).toBe(0);
  });

  it('refuse a wrong password with 422 on password, counted, and change nothing', async () => {
    const task = await taskOf('Product D');
    const res = await decide(task.id, {
      action: 'accept',
      password: 'Not-my-password1',
      version: task.version,
    });
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.errors[0].property).toBe('password');
    expect(await failedAttempts(signer.id)).toBe(1);
    expect(await lastAudit('Authentication', 'SignatureFailed')).toMatchObject({
      user_id: signer.id,
    });
    expect(await taskOf('Product D')).toEqual(task);
  });

  it('refuse a stale version with 409 and a task of another facility with 404', async () => {
    const task = await taskOf('Product D');
    const stale = await decide(task.id, {
      action: 'accept',
      password: signer.password,
      version: task.version - 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const elsewhere = await decide(
      task.id,
      { action: 'accept', password: signer.password, version: task.version },
      signer,
      otherF,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.errName).toBe('NotFoundError');
    expect(await taskOf('Product D')).toEqual(task);
  });

  it('are accepted once, signed, with the study type and due date chosen, and audited', async () => {
    const task = await taskOf('Product B');
    const past = await decide(task.id, {
      action: 'accept',
      password: signer.password,
      version: task.version,
      dueDate: '2020-01-01',
    });
    expect(past.status).toBe(422);
    expect(past.body.errors.map((e: Body) => e.property)).toEqual(['dueDate']);
    const res = await decide(task.id, {
      action: 'accept',
      password: signer.password,
      version: task.version,
      proposedStudyType: 'Validation',
      dueDate: inDays(60),
      justification: 'Worst case of its group',
    });
    expect(res.status).toBe(200);
    const accepted = res.body.qualificationTask;
    expect(accepted).toMatchObject({
      id: task.id,
      status: 'Accepted',
      proposedStudyType: 'Validation',
      dueDate: inDays(60),
      justification: 'Worst case of its group',
      decidedBy: signer.id,
      decidedByName: expect.stringMatching(/^Test User\d+$/),
      version: task.version + 1,
    });
    expect(Date.parse(accepted.decidedAt)).toBeGreaterThan(Date.now() - 60_000);
    const audit = await lastAudit('QualificationTask', 'Accept');
    expect(audit).toMatchObject({
      user_id: signer.id,
      entity_id: String(task.id),
      reason: 'Worst case of its group',
      old_values: { status: 'Open', proposedStudyType: 'New Product Introduction' },
      new_values: {
        status: 'Accepted',
        proposedStudyType: 'Validation',
        dueDate: inDays(60),
        meaning: 'Accepted: the proposed study is to be performed',
        printedName: accepted.decidedByName,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const again = await decide(task.id, {
      action: 'dismiss',
      justification: 'Changed my mind',
      password: signer.password,
      version: accepted.version,
    });
    expect(again.status).toBe(409);
    expect(again.body.errName).toBe('TransactionLocked');
  });

  it('are dismissed with a justification, signed', async () => {
    const task = await taskOf('Product D');
    const res = await decide(task.id, {
      action: 'dismiss',
      justification: 'Product D is discontinued on Line 2',
      password: signer.password,
      version: task.version,
      proposedStudyType: 'Validation',
    });
    expect(res.status).toBe(200);
    expect(res.body.qualificationTask).toMatchObject({
      status: 'Dismissed',
      justification: 'Product D is discontinued on Line 2',
      // A dismissal keeps what the task proposed.
      proposedStudyType: 'New Product Introduction',
      decidedBy: signer.id,
    });
    expect(await lastAudit('QualificationTask', 'Dismiss')).toMatchObject({
      reason: 'Product D is discontinued on Line 2',
      new_values: { status: 'Dismissed', meaning: expect.stringMatching(/^Dismissed/) },
    });
    expect((await list('?status=Dismissed')).body.total).toBe(1);
  });

  it('a later assessment asks again about a dismissed gap, not about an accepted one', async () => {
    const third = await run(103);
    expect(third.created).toHaveLength(1);
    expect(third.carriedOver).toHaveLength(1);
    const tasks = (await list('?evaluationId=103')).body.qualificationTasks as Body[];
    expect(tasks.map((task) => [task.product, task.status]).sort()).toEqual([
      ['Product C', 'Open'],
      ['Product D', 'Open'],
    ]);
    expect((await list('?pageLimit=100')).body.total).toBe(4);
  });

  it("are kept per facility: another facility's run makes its own tasks", async () => {
    const [other] = await t.server.db.query<{ id: number }>(
      'select id from facilities order by id offset 1 limit 1',
    );
    const [otherLine] = await t.server.db.query<{ id: number }>(
      `insert into productions (facility_id, name) values ($1, 'Other line') returning id`,
      [other!.id],
    );
    const [otherProduct] = await t.server.db.query<{ id: number }>(
      `insert into products (facility_id, name, max_daily_dose, min_batch_size)
       values ($1, 'Other product', '{}', '{}') returning id`,
      [other!.id],
    );
    const made = await run(
      201,
      [
        {
          ...cell('A', 1, 'notCovered'),
          productId: otherProduct!.id,
          product: 'Other product',
          trainId: otherLine!.id,
          train: 'Other line',
        },
      ],
      other!.id,
    );
    expect(made.created).toHaveLength(1);
    const theirs = await t.call('GET', `${otherF}/qualification-task`);
    expect(theirs.body.qualificationTasks.map((task: Body) => task.id)).toEqual(made.created);
    expect((await list('?evaluationId=201')).body.total).toBe(0);
    const refused = await decide(
      made.created[0]!,
      { action: 'accept', password: signer.password, version: 1 },
      signer,
    );
    expect(refused.status).toBe(404);
  });
});
