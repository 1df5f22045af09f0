import { sopsDef } from '#core/entities/defs/documents.def.ts';
import type { TControlledDocumentType, TSignResponse } from '#core/schemas/signatures.schemas.ts';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { sign } from '#server/modules/signatures/signatures.service.ts';
import { buildUser, fullPermissionMap, permissionsWith } from '../factories.ts';
import { buildEntity, uniqueName, type FactoryScope } from './entities.ts';

/*
 * Controlled records put in force with real signatures: each one is signed by the app's own
 * signature service (sign()), which re-checks the signer's password and binds the row into the
 * audit chain with its MAC, so that every read counts it valid (21 CFR 11.70, 11.200(a)).
 */

/** What the signature service needs of a server: its database and its key settings. */
export interface FactoryServer {
  db: Db;
  config: Config;
}

export interface BuiltSigner {
  id: number;
  username: string;
  password: string;
  /** The signer's printed name, as a signature carries it. */
  name: string;
}

export interface Signers {
  /** Edits and submits any record of the facility. */
  submitter: BuiltSigner;
  /** Holds ApprovalPolicy Sign only: reviews and approves. */
  approver: BuiltSigner;
}

const signersOf = new WeakMap<Db, Map<number, Promise<Signers>>>();

async function signer(db: Db, facilityId: number, firstName: string, permissions: object) {
  const user = await buildUser(db, {
    facilityIds: [facilityId],
    firstName,
    permissions: permissions as ReturnType<typeof fullPermissionMap>,
  });
  const [row] = await db.query<{ name: string }>(
    `select first_name || ' ' || last_name as name from users where id = $1`,
    [user.id],
  );
  return { id: user.id, username: user.username, password: user.password, name: row!.name };
}

/**
 * The facility's two signers, made on first use and kept for the database: a password hash
 * costs as much CPU as the rest of a signature.
 */
export function buildSigners(db: Db, facilityId: number): Promise<Signers> {
  const known = signersOf.get(db) ?? new Map<number, Promise<Signers>>();
  signersOf.set(db, known);
  let signers = known.get(facilityId);
  if (!signers) {
    signers = (async () => ({
      submitter: await signer(db, facilityId, 'Submitter', fullPermissionMap()),
      approver: await signer(
        db,
        facilityId,
        'Approver',
        permissionsWith({ ApprovalPolicy: ['Get', 'Sign'] }),
      ),
    }))();
    known.set(facilityId, signers);
  }
  return signers;
}

/** The signer as the author of a request's audit rows. */
export const actorFor = (person: BuiltSigner): Actor => ({
  userId: person.id,
  userName: person.name,
  ip: null,
  userAgent: null,
  requestId: null,
});

export interface SignRequest {
  documentType: TControlledDocumentType;
  documentId: number;
  action: 'Submit' | 'Review' | 'Approve' | 'Reject';
  reason?: string;
}

/** One signature by the app's signature service, with the signer's own password. */
export async function signAs(
  server: FactoryServer,
  scope: FactoryScope,
  person: BuiltSigner,
  request: SignRequest,
): Promise<TSignResponse> {
  const key = await signatureKey(server.config, () => undefined);
  return sign(server.db, server.config, key, actorFor(person), scope, {
    ...request,
    password: person.password,
  });
}

/**
 * Submits the record's version being built and signs it until it is Approved (as many Review
 * and Approve steps as the facility's approval policy asks); answers the last signature.
 */
export async function signIntoForce(
  server: FactoryServer,
  scope: FactoryScope,
  ref: { documentType: TControlledDocumentType; documentId: number },
  signers?: Partial<Signers>,
): Promise<TSignResponse> {
  // The facility's test signers only where a signer is not given: the demo seed signs as its
  // own people and must not leave test accounts behind.
  const known = () => buildSigners(server.db, scope.facilityId);
  const submitter = signers?.submitter ?? (await known()).submitter;
  const approver = signers?.approver ?? (await known()).approver;
  let answer = await signAs(server, scope, submitter, { ...ref, action: 'Submit' });
  for (let step = 0; answer.document.status !== 'Approved'; step += 1) {
    if (step > 5) throw new Error(`${ref.documentType} ${ref.documentId} is not approved`);
    const action = answer.document.status === 'BeingReviewed' ? 'Review' : 'Approve';
    answer = await signAs(server, scope, approver, { ...ref, action });
  }
  return answer;
}

export interface SignedRecord {
  documentType: TControlledDocumentType;
  documentId: number;
  submitter: BuiltSigner;
  approver: BuiltSigner;
  /** The Approve signature and the record's state after it. */
  approval: TSignResponse;
}

/**
 * A controlled record submitted and approved with real signatures: the given one, or else an
 * SOP written by the facility's submitter (its version 1 being built) for the purpose.
 */
export async function buildSignedRecord(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: {
    documentType?: TControlledDocumentType;
    documentId?: number;
    sop?: Record<string, unknown>;
  } & Partial<Signers> = {},
): Promise<SignedRecord> {
  const known = await buildSigners(server.db, scope.facilityId);
  const submitter = overrides.submitter ?? known.submitter;
  const approver = overrides.approver ?? known.approver;
  let documentType = overrides.documentType ?? 'SOP';
  let documentId = overrides.documentId;
  if (documentId === undefined) {
    documentType = 'SOP';
    const sop = await buildEntity(
      server.db,
      scope,
      sopsDef,
      { sopNumber: uniqueName('SOP'), name: uniqueName('Cleaning'), ...overrides.sop },
      actorFor(submitter),
    );
    documentId = sop.id;
  }
  const approval = await signIntoForce(
    server,
    scope,
    { documentType, documentId },
    { submitter, approver },
  );
  return { documentType, documentId, submitter, approver, approval };
}
