import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import { buildUser, permissionsWith } from './factories.ts';
import { ADMIN, type HttpResult, type TestServer } from './test-server.ts';

/*
 * A limit policy or the inspection settings change the limits only once approved. Tests that
 * change one and expect the limits to move put the change in force the way a site does: the
 * editor submits it with their password and a second user, holding ApprovalPolicy Sign in the
 * facility, approves it (the default approval policy: one Approver step, no self-approval).
 */

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

export interface Signer {
  token: string;
  password: string;
}

export type PolicyDocumentType = 'CleaningLimitPolicy' | 'CleaningInspectionSettings';

const approvers = new WeakMap<TestServer, Map<string, Signer>>();

/** The facility's second signer (one per server and facility, made on first use). */
export async function policyApprover(server: TestServer, F: string): Promise<Signer> {
  const known = approvers.get(server) ?? new Map<string, Signer>();
  approvers.set(server, known);
  const found = known.get(F);
  if (found) return found;
  const facilityId = Number(/facilities\/(\d+)/.exec(F)?.[1]);
  const user = await buildUser(server.db, {
    facilityIds: [facilityId],
    firstName: 'Approver',
    permissions: permissionsWith({ ApprovalPolicy: ['Get', 'Sign'], CleaningPolicy: ['Get'] }),
  });
  const signer = {
    token: await server.login(user.username, user.password),
    password: user.password,
  };
  known.set(F, signer);
  return signer;
}

async function sign(
  server: TestServer,
  F: string,
  as: Signer,
  body: { documentType: TControlledDocumentType; documentId: number; action: string },
): Promise<Body> {
  const res = await server.request<Body>('POST', `${F}/signatures`, {
    token: as.token,
    body: { ...body, password: as.password },
  });
  if (res.status !== 200)
    throw new Error(
      `${body.action} ${body.documentType} ${body.documentId}: ${res.status} ${JSON.stringify(res.body)}`,
    );
  return res.body;
}

/** Submits the record's version being built and signs it until it is Approved. */
export async function putInForce(
  server: TestServer,
  F: string,
  editor: Signer,
  documentType: TControlledDocumentType,
  documentId: number,
): Promise<Body> {
  const approver = await policyApprover(server, F);
  const ref = { documentType, documentId };
  let answer = await sign(server, F, editor, { ...ref, action: 'Submit' });
  for (let step = 0; answer.document.status !== 'Approved'; step += 1) {
    if (step > 5)
      throw new Error(
        `${documentType} ${documentId} is not approved: ${JSON.stringify(answer.document)}`,
      );
    const action = answer.document.status === 'BeingReviewed' ? 'Review' : 'Approve';
    answer = await sign(server, F, approver, { ...ref, action });
  }
  return answer;
}

/**
 * POSTs a change of a policy (cleaning_limit_policies, intermediate-, microbial-cleaning-limit-
 * policies, cleaning-inspection-settings) with the record's current version, then puts it in
 * force. `editor` edits and submits (adminEditor(token) for the test server's administrator).
 */
export async function changePolicyInForce(
  server: TestServer,
  F: string,
  path: string,
  change: Record<string, unknown>,
  editor: Signer,
): Promise<HttpResult<Body>> {
  const readPath =
    path === 'cleaning_limit_policies' ? `${path}/${String(change.residueType)}` : path;
  const current = await server.request<Body>('GET', `${F}/${readPath}`, { token: editor.token });
  // The Intermediate routes wrap the policy in `policy`.
  const unwrap = (body: Body): Body => (path.startsWith('intermediate') ? body.policy : body);
  const record = unwrap(current.body);
  const res = await server.request<Body>('POST', `${F}/${path}`, {
    token: editor.token,
    body: { version: record.version, ...change },
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  const saved = unwrap(res.body);
  const documentType =
    path === 'cleaning-inspection-settings' ? 'CleaningInspectionSettings' : 'CleaningLimitPolicy';
  await putInForce(server, F, editor, documentType, saved.id as number);
  return res;
}

/** The administrator of startTestServer as an editor who signs. */
export const adminEditor = (token: string): Signer => ({ token, password: ADMIN.password });
