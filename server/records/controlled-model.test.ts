import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRecordStatus } from '#core/schemas/signatures.schemas.ts';
import { startSignKit, type Person, type SignKit } from '#server/test/sign-test-kit.ts';

/*
 * DB-3, model-based: random sequences of edit, submit, review, approve, reject and re-edit by
 * three users on SOP records, over HTTP. After every step the record's status is the model's,
 * only the transitions the contract allows succeed, and once a record was approved exactly one
 * of its versions is Approved (the partial unique index and the service together).
 */

interface User {
  person: Person;
  edit: boolean;
  sign: boolean;
}

interface Doc {
  id: number;
  status: TRecordStatus;
  versionNumber: number;
  submitter: number | null;
  reviewer: number | null;
  everApproved: boolean;
}

interface Model {
  docs: Doc[];
}

let kit: SignKit;
let users: User[];

type Action = 'Edit' | 'Submit' | 'Review' | 'Approve' | 'Reject';

/** What the model says the API answers, and the document after it. */
function expected(doc: Doc, user: User, action: Action): { status: number; next?: Partial<Doc> } {
  const id = user.person.id;
  if (action === 'Edit') {
    if (!user.edit) return { status: 403 };
    if (doc.status === 'BeingReviewed' || doc.status === 'BeingApproved') return { status: 409 };
    return doc.status === 'Approved'
      ? { status: 200, next: { status: 'BeingBuilt', versionNumber: doc.versionNumber + 1 } }
      : { status: 200 };
  }
  if (action === 'Submit') {
    if (doc.status !== 'BeingBuilt') return { status: 409 };
    if (!user.edit) return { status: 403 };
    return { status: 200, next: { status: 'BeingReviewed', submitter: id, reviewer: null } };
  }
  const allowed =
    action === 'Review'
      ? doc.status === 'BeingReviewed'
      : action === 'Approve'
        ? doc.status === 'BeingApproved'
        : doc.status === 'BeingReviewed' || doc.status === 'BeingApproved';
  if (!allowed) return { status: 409 };
  // Policy: one Reviewer step, one Approver step, no self-approval.
  if (!user.sign || id === doc.submitter || id === doc.reviewer) return { status: 403 };
  if (action === 'Reject') return { status: 200, next: { status: 'BeingBuilt' } };
  if (action === 'Review') return { status: 200, next: { status: 'BeingApproved', reviewer: id } };
  return { status: 200, next: { status: 'Approved', everApproved: true } };
}

async function checkInvariants(doc: Doc): Promise<void> {
  // The latest version is the draft read; a plain read answers the version in force.
  const read = await kit.call('GET', `${kit.F}/sop/${doc.id}?version=draft`);
  expect(read.body).toMatchObject({ status: doc.status, versionNumber: doc.versionNumber });
  const [row] = await kit.server.db.query<{ approved: number }>(
    `select count(*)::int as approved from controlled_versions
      where document_type = 'SOP' and document_id = $1 and status = 'Approved'`,
    [doc.id],
  );
  expect(row!.approved).toBe(doc.everApproved ? 1 : 0);
}

class CreateCommand implements fc.AsyncCommand<Model, SignKit> {
  constructor(readonly user: number) {}
  check = (m: Readonly<Model>) => m.docs.length < 3;
  async run(m: Model) {
    const user = users[this.user]!;
    const res = await kit.call(
      'POST',
      `${kit.F}/sop`,
      { sopNumber: `DB3-${process.pid}-${Math.random().toString(36).slice(2)}`, name: 'SOP' },
      user.person,
    );
    expect(res.status).toBe(user.edit ? 200 : 403);
    if (res.status !== 200) return;
    const doc: Doc = {
      id: res.body.result.id,
      status: 'BeingBuilt',
      versionNumber: 1,
      submitter: null,
      reviewer: null,
      everApproved: false,
    };
    m.docs.push(doc);
    await checkInvariants(doc);
  }
  toString = () => `create by u${this.user}`;
}

/** The statuses the runs went through, and whether an approval replaced an approved version. */
const reached = new Set<string>();

async function act(m: Model, docIndex: number, action: Action, userIndex: number, label: string) {
  const doc = m.docs[docIndex % m.docs.length]!;
  const user = users[userIndex]!;
  const want = expected(doc, user, action);
  const res =
    action === 'Edit'
      ? await kit.editSop(doc.id, user.person)
      : await kit.signSop(doc.id, action, user.person);
  expect({ step: label, status: res.status }).toEqual({ step: label, status: want.status });
  if (want.next?.status === 'Approved' && doc.everApproved) reached.add('Deprecated');
  if (want.next) Object.assign(doc, want.next);
  reached.add(doc.status);
  await checkInvariants(doc);
}

/** Any action by any user: mostly refusals, which must be the contract's. */
class ActCommand implements fc.AsyncCommand<Model, SignKit> {
  constructor(
    readonly action: Action,
    readonly doc: number,
    readonly user: number,
  ) {}
  check = (m: Readonly<Model>) => m.docs.length > 0;
  run = (m: Model) => act(m, this.doc, this.action, this.user, this.toString());
  toString = () => `${this.action} doc${this.doc} by u${this.user}`;
}

/**
 * The record's next step in its life (Submit, Review or Reject, Approve or Reject, re-edit) by
 * the first user from `offset` on whom the model expects to succeed: random sequences then
 * reach approvals and re-approvals, and the API must still answer as the model says.
 */
class AdvanceCommand implements fc.AsyncCommand<Model, SignKit> {
  constructor(
    readonly doc: number,
    readonly offset: number,
    readonly reject: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.docs.length > 0;
  async run(m: Model) {
    const doc = m.docs[this.doc % m.docs.length]!;
    const next: Record<TRecordStatus, Action> = {
      BeingBuilt: 'Submit',
      BeingReviewed: this.reject ? 'Reject' : 'Review',
      BeingApproved: this.reject ? 'Reject' : 'Approve',
      Approved: 'Edit',
      Deprecated: 'Edit',
      // Only a read shows it (a version changed behind the app); the model never makes one.
      IntegrityBroken: 'Edit',
    };
    const action = next[doc.status];
    const order = [0, 1, 2].map((i) => (i + this.offset) % 3);
    const user = order.find((u) => expected(doc, users[u]!, action).status === 200) ?? order[0]!;
    await act(m, this.doc, action, user, `advance: ${action} doc${this.doc} by u${user}`);
  }
  toString = () => `advance doc${this.doc} from u${this.offset}${this.reject ? ' rejecting' : ''}`;
}

beforeAll(async () => {
  kit = await startSignKit();
  users = [
    { person: await kit.person({ edit: true }), edit: true, sign: false },
    { person: await kit.person({ edit: true, sign: true }), edit: true, sign: true },
    { person: await kit.person({ sign: true }), edit: false, sign: true },
  ];
  const set = await kit.call('POST', `${kit.F}/approval_policies`, {
    documentType: 'SOP',
    steps: [
      { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
      { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
    ],
    allowSelfApproval: false,
    reason: 'Review, then approval',
    version: 0,
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await kit?.close();
});

/** Create, then submit, review, approve, re-edit, submit, review, approve, with one rejection. */
function lifeCycle(): fc.AsyncCommand<Model, SignKit>[] {
  return [
    new CreateCommand(0),
    ...[0, 1, 2].map((offset) => new AdvanceCommand(0, offset, false)),
    new AdvanceCommand(0, 0, false),
    new AdvanceCommand(0, 0, false),
    new AdvanceCommand(0, 1, true),
    new AdvanceCommand(0, 0, false),
    new AdvanceCommand(0, 1, false),
    new AdvanceCommand(0, 2, false),
  ];
}

describe('DB-3: controlled records under random sequences of actions', () => {
  it('allow only the contract’s transitions, with exactly one Approved version once approved', async () => {
    const user = fc.integer({ min: 0, max: 2 });
    const doc = fc.integer({ min: 0, max: 1 });
    const commands = [
      user.map((u) => new CreateCommand(u)),
      fc
        .tuple(fc.constantFrom<Action>('Edit', 'Submit', 'Review', 'Approve', 'Reject'), doc, user)
        .map(([action, d, u]) => new ActCommand(action, d, u)),
      fc
        .tuple(doc, user, fc.integer({ min: 0, max: 4 }))
        .map(([d, u, r]) => new AdvanceCommand(d, u, r === 0)),
      fc
        .tuple(doc, user, fc.integer({ min: 0, max: 4 }))
        .map(([d, u, r]) => new AdvanceCommand(d, u, r === 0)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), (cmds) =>
        fc.asyncModelRun(() => ({ model: { docs: [] }, real: kit }), cmds),
      ),
      {
        numRuns: 15,
        endOnFailure: true,
        // Besides the random runs, one that surely goes through approval, re-edit and
        // re-approval (which deprecates version 1), so that every run of the suite covers it.
        examples: [[lifeCycle()]],
      },
    );
    // The runs went through every status and re-approvals, so the transitions were exercised.
    expect([...reached].sort()).toEqual([
      'Approved',
      'BeingApproved',
      'BeingBuilt',
      'BeingReviewed',
      'Deprecated',
    ]);
  }, 600_000);
});
