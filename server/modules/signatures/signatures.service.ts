import { rightText } from '#core/permissions/permission-texts.ts';
import { STATUS_LABELS } from '#core/records/status-labels.ts';
import type { TRecordStatus } from '#core/schemas/signatures.schemas.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import {
  isAllowed,
  mergePermissionMaps,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import {
  meaningOf,
  type TApprovalStep,
  type TSignRequest,
  type TSignEligibility,
  type TSignResponse,
  type TSignerRole,
} from '#core/schemas/signatures.schemas.ts';
import { recordAfterRollback, type Db, type Queryable } from '#server/db/db.ts';
import { NOW } from '#server/entities/versioned-update.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { KeyConfig } from '#server/modules/active-directory/active-directory.settings.ts';
import { verifySigner } from '#server/modules/auth/signing-password.ts';
import { approvalPolicy } from './approval-policies.ts';
import { changeControlNotice, isSignedDirectly } from '#core/records/change-controlled.ts';
import { facilityKind } from '#server/db/facility-kind.ts';
import {
  ControlledRefusal,
  contentHash,
  deprecateInForce,
  documentTypeRegistration,
  latestVersion,
  updateVersion,
  type ControlledRef,
  type VersionRow,
} from '#server/records/controlled.ts';
import { bindingProblems } from '#server/records/signature-binding.ts';
import { writeSignature } from '#server/records/signature-write.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import {
  actionAllowedIn,
  statusAt,
  stepProgress,
  whyNotEligible,
  type StepProgress,
} from '#server/records/signature-steps.ts';
import { signaturesOf, toSignature } from '#server/records/signatures.read.ts';

/** A user's roles and merged permissions in one facility. */
export async function signerIn(q: Queryable, userId: number, facilityId: number) {
  const rows = await q.query<{ role_id: number; permissions: PermissionMap }>(
    `select r.id as role_id, r.permissions from user_facility_roles ufr
       join roles r on r.id = ufr.role_id and r.archived_at is null
      where ufr.user_id = $1 and ufr.facility_id = $2`,
    [userId, facilityId],
  );
  const permissions = mergePermissionMaps(rows.map((r) => r.permissions));
  return {
    userId,
    permissions,
    roleIds: rows.map((r) => r.role_id),
    maySign: rows.length > 0 && isAllowed(permissions, 'ApprovalPolicy', 'Sign'),
  };
}

/**
 * A one-time signed act (a site override) is signed only by a holder of the right to sign records
 * (ApprovalPolicy Sign; 21 CFR 11.200): 403 NotAllowed, `what` saying what was to be signed.
 */
export async function assertMaySignAct(
  q: Queryable,
  userId: number,
  facilityId: number,
  what: string,
): Promise<void> {
  const signer = await signerIn(q, userId, facilityId);
  if (!signer.maySign)
    throw new AppError(
      'NotAllowed',
      `${what} is signed: it needs ${rightText('ApprovalPolicy', 'Sign')}`,
    );
}

type Signer = Awaited<ReturnType<typeof signerIn>>;

interface Outcome {
  signerRole: TSignerRole;
  status: VersionRow['status'];
  signatureState: VersionRow['signature_state'];
  steps: TApprovalStep[] | null;
  allowSelfApproval: boolean | null;
}

/** What the action does to the version, or a refusal (409 status, 403 signer). */
async function decide(
  tx: Queryable,
  actor: Actor,
  ref: ControlledRef,
  version: VersionRow,
  request: TSignRequest,
  signer: Signer,
  signingKey: Buffer,
): Promise<Outcome> {
  const refuse = (name: 'TransactionLocked' | 'NotAllowed', why: string): never => {
    throw new ControlledRefusal(name, why, actor, ref, request.action);
  };
  const registration = documentTypeRegistration(ref.documentType)!;
  if (registration.isArchived && (await registration.isArchived(tx, ref)))
    refuse('TransactionLocked', 'This record is archived: restore it before signing it');
  if (!actionAllowedIn(request.action, version.status))
    refuse(
      'TransactionLocked',
      `${request.action} is not possible while version ${version.version_number} is ${STATUS_LABELS[version.status as TRecordStatus] ?? version.status}`,
    );
  const { changeControlled } = registration;
  if (
    changeControlled &&
    !isSignedDirectly(
      { changeControlled: true },
      await facilityKind(tx, ref.facilityId),
      request.action,
    )
  )
    refuse('TransactionLocked', changeControlNotice(changeControlled.pluralLabel));
  const context = {
    actor,
    ref,
    versionNumber: version.version_number,
    content: version.content,
    key: signingKey,
  };
  if (request.action === 'Submit') {
    if (!isAllowed(signer.permissions, registration.resource, registration.action))
      refuse(
        'NotAllowed',
        `Submitting needs ${rightText(registration.resource, registration.action)} in this facility`,
      );
    await registration.beforeSubmit?.(tx, context);
    const policy = await approvalPolicy(tx, ref.facilityId, ref.documentType);
    return {
      signerRole: 'Submitter',
      status: statusAt(policy.steps, 0),
      signatureState: 'PendingApproval',
      steps: policy.steps,
      allowSelfApproval: policy.allowSelfApproval,
    };
  }
  const eligibility = await reviewEligibility(tx, signingKey, ref, version, signer);
  if ('why' in eligibility)
    return refuse('NotAllowed', `You may not sign this version: ${eligibility.why}`);
  const { steps, progress } = eligibility;
  const signerRole = steps[progress.current]!.signerRole;
  if (request.action === 'Reject')
    return {
      signerRole,
      status: 'BeingBuilt',
      signatureState: 'ChangesRequested',
      steps,
      allowSelfApproval: version.allow_self_approval,
    };
  progress.signers[progress.current]!.add(signer.userId);
  const done = progress.signers[progress.current]!.size >= steps[progress.current]!.minSignatures;
  const status = statusAt(steps, progress.current + (done ? 1 : 0));
  if (status === 'Approved') await registration.beforeApprove?.(tx, { ...context, by: null });
  return {
    signerRole,
    status,
    signatureState: status === 'Approved' ? 'Signed' : 'PendingApproval',
    steps,
    allowSelfApproval: version.allow_self_approval,
  };
}

/**
 * Whether the signer may Review, Approve or Reject the version now: its steps and how far they
 * are, or why not. What the sign route enforces and what the record's screen offers read this one
 * rule, so a user is never offered a signature the server would refuse.
 */
async function reviewEligibility(
  q: Queryable,
  signingKey: Buffer,
  ref: ControlledRef,
  version: VersionRow,
  signer: Signer,
): Promise<{ why: string } | { steps: TApprovalStep[]; progress: StepProgress }> {
  const steps = (version.approval_steps ?? []) as TApprovalStep[];
  // Only signatures the audit trail binds count toward the steps: a row written into the table
  // by other means must not complete a review or an approval (21 CFR 11.70).
  const rows = await signaturesOf(q, ref, version.version_number);
  const binding = await bindingProblems(q, signingKey, rows);
  const signed = rows.filter((s) => binding.get(s.id) === null);
  const progress = stepProgress(
    steps,
    signed.map((s) => ({ action: s.action, userId: s.user_id })),
  );
  const why = whyNotEligible(steps, progress, version.allow_self_approval === true, signer);
  if (why) return { why };
  const registration = documentTypeRegistration(ref.documentType);
  if (version.allow_self_approval !== true && registration?.authorOf) {
    // Separation of duties: whoever raised a record does not approve it (21 CFR 211.192, 11.10(g)).
    if ((await registration.authorOf(q, ref)) === signer.userId)
      return {
        why: 'you raised this record, and the approval policy does not allow self-approval',
      };
  }
  return { steps, progress };
}

/**
 * `GET {F}/signatures/eligibility`: the signature the record's current version waits for from
 * this user (Review or Approve, Reject beside it), or why it does not wait for theirs.
 */
export async function signingChoice(
  db: Db,
  signingKey: Buffer,
  ref: ControlledRef,
  userId: number,
): Promise<TSignEligibility> {
  const version = await latestVersion(db, ref);
  if (!version)
    throw new AppError('NotFoundError', `${ref.documentType} ${ref.documentId} was not found`);
  const none = { versionNumber: version.version_number, action: null, reason: null };
  if (version.status !== 'BeingReviewed' && version.status !== 'BeingApproved') return none;
  const signer = await signerIn(db, userId, ref.facilityId);
  const eligibility = await reviewEligibility(db, signingKey, ref, version, signer);
  if ('why' in eligibility)
    return { ...none, reason: `You may not sign this version: ${eligibility.why}` };
  return { ...none, action: version.status === 'BeingReviewed' ? 'Review' : 'Approve' };
}

/** Moves the version to its new status; an approval deprecates the one in force before. */
async function applyOutcome(
  tx: Queryable,
  actor: Actor,
  ref: ControlledRef,
  version: VersionRow,
  o: Outcome,
) {
  if (o.status === 'Approved') await deprecateInForce(tx, actor, ref);
  const row = await updateVersion(tx, actor, ref, version, {
    status: o.status,
    signature_state: o.signatureState,
    approval_steps: o.steps ? JSON.stringify(o.steps) : null,
    allow_self_approval: o.allowSelfApproval,
    ...(o.signerRole === 'Submitter' ? { submitted_at: NOW } : {}),
    ...(o.status === 'Approved' ? { approved_at: NOW } : {}),
  });
  return row.version as number;
}

/**
 * `POST {F}/signatures`: re-authenticates the signer, checks the action against the version's
 * status and the signer against its approval steps, then writes the signature, the new status
 * and the audit row in one transaction. Refusals are audited after it rolled back.
 */
export async function sign(
  db: Db,
  config: KeyConfig,
  signingKey: Buffer,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  request: TSignRequest,
): Promise<TSignResponse> {
  const registration = documentTypeRegistration(request.documentType);
  if (!registration)
    throw new AppError('NotFoundError', `No records of type ${request.documentType} are kept yet`);
  if (request.action === 'Reject' && !request.reason)
    throw validationError([
      { property: 'reason', constraints: { required: 'A rejection needs a reason' } },
    ]);
  const userId = actor.userId!;
  await verifySigner(db, config, actor, userId, request);
  const ref: ControlledRef = {
    ...scope,
    documentType: request.documentType,
    documentId: request.documentId,
  };
  try {
    return await db.transaction(async (tx) => {
      const version = await latestVersion(tx, ref, true);
      if (!version)
        throw new AppError(
          'NotFoundError',
          `${request.documentType} ${request.documentId} was not found`,
        );
      const signer = await signerIn(tx, userId, scope.facilityId);
      const outcome = await decide(tx, actor, ref, version, request, signer, signingKey);
      const recordVersion = await applyOutcome(tx, actor, ref, version, outcome);
      const snapshotId =
        outcome.status === 'Approved' && registration.onApproved
          ? await registration.onApproved(tx, {
              actor,
              ref,
              versionNumber: version.version_number,
              content: version.content,
              key: signingKey,
            })
          : null;
      const meaning = meaningOf(request.documentType, request.action);
      // The signature and its entry in the hash chain: what it binds, with its MAC.
      const signature = await writeSignature(
        tx,
        actor,
        signingKey,
        scope,
        {
          documentType: ref.documentType,
          documentId: ref.documentId,
          versionNumber: version.version_number,
          action: request.action,
          signerRole: outcome.signerRole,
          meaning,
          contentHash: contentHash(ref, version.version_number, version.content),
          reason: request.reason ?? null,
          limitsSnapshotId: snapshotId,
        },
        {
          signerRole: outcome.signerRole,
          status: outcome.status,
          signatureState: outcome.signatureState,
          ...(snapshotId === null ? {} : { limitsSnapshotId: snapshotId }),
        },
      );
      if (outcome.status === 'Approved')
        await emitRecordEvent(tx, {
          facilityId: ref.facilityId,
          event: 'record.approved',
          record: { type: ref.documentType, id: ref.documentId },
          data: {
            documentType: ref.documentType,
            documentId: ref.documentId,
            versionNumber: version.version_number,
            title: version.title,
            signatureId: signature.id,
            limitsSnapshotId: snapshotId,
          },
        });
      const own = registration.recordVersion ? await registration.recordVersion(tx, ref) : null;
      return {
        signature: { ...toSignature(signature), valid: true },
        document: {
          id: ref.documentId,
          status: outcome.status,
          signatureState: outcome.signatureState,
          versionNumber: version.version_number,
          version: own ?? recordVersion,
        },
      };
    });
  } catch (error) {
    await recordAfterRollback(error, db);
    throw error;
  }
}
