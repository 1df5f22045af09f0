import { AppError } from '#core/errors/errors.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZPendingApprovalsResponse,
  ZSignEligibility,
  ZSignRequest,
  ZSignResponse,
  ZRecordQuery,
  ZSignaturesQuery,
  ZSignaturesResponse,
} from '#core/schemas/signatures.schemas.ts';
import {
  SIGNED_DOCUMENT_TYPES,
  type TSignedDocumentType,
} from '#core/schemas/signatures.schemas.ts';
import type { FastifyRequest } from 'fastify';
import { typed, type AppContext, type Guard } from '#server/http/app-context.ts';
import { writeRefusal } from '#server/http/refusal-audit.ts';
import { actorOf, facilityPermissions, sessionOf } from '#server/http/session-guard.ts';
import { documentTypeRegistration } from '#server/records/controlled.ts';
import { signedActRegistration } from '#server/records/signature-write.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import { registerRecordPdfRoute } from './record-pdf.routes.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { listSignatures, pendingApprovals } from '#server/records/signatures.read.ts';
import { sign, signerIn, signingChoice } from './signatures.service.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/** The document type a request's query names, when it is one (guards run before validation). */
function documentTypeOf(request: FastifyRequest): TSignedDocumentType | undefined {
  const type = (request.query as { documentType?: unknown } | undefined)?.documentType;
  return SIGNED_DOCUMENT_TYPES.find((known) => known === type);
}

/**
 * The guard of who may read a record's signatures (and its PDF): ApprovalPolicy Get, or Get on
 * the record's type (21 CFR 11.10(d)).
 */
export function readsSignatures({ permitAny }: Pick<AppContext, 'permitAny'>): Guard {
  return permitAny(
    (request) => {
      const type = documentTypeOf(request);
      const registration = type
        ? (documentTypeRegistration(type as TControlledDocumentType) ?? signedActRegistration(type))
        : undefined;
      const choices: [GuardResource, string][] = [['ApprovalPolicy', 'Get']];
      return registration ? [...choices, [registration.resource, 'Get']] : choices;
    },
    (request) => `Reading ${documentTypeOf(request) ?? 'these'} signatures is not allowed`,
  );
}
const tags = ['signatures'];

/** `{F}/signatures` and `{F}/signatures/pending` (shared/contracts/signatures-api.md). */
export function registerSignatureRoutes(context: AppContext): void {
  const { app, db, config, requireSession, permitMember } = context;
  const r = typed(app);
  const signingKey = () => signatureKey(config, (message) => app.log.warn(message));

  r.post(
    `${F}/signatures`,
    {
      preHandler: requireSession,
      schema: {
        tags,
        summary: 'Sign a controlled record: Submit, Review, Approve or Reject, with your password',
        description:
          'The signer re-enters their own password (a wrong one is a DataValidationError on `password` and counts toward the lockout). Submit needs the right to edit the record; Review, Approve and Reject need ApprovalPolicy Sign in the facility and, where the step names roles, one of them. An action the status does not allow is 409 TransactionLocked; a signer who is not eligible, or who signed another step of the same version without allowSelfApproval, is 403 NotAllowed. Reject needs a reason.',
        params: ZFacilityParams,
        body: ZSignRequest,
        response: { 200: ZSignResponse },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const session = sessionOf(request);
      // Only a member of the facility signs there; who may sign what is decided by the service.
      try {
        facilityPermissions(session, plan, facility);
      } catch (error) {
        // A refusal is audited too; the facility asked for goes into the values (as the guards
        // do), since it may be one the user has no business knowing exists.
        if (error instanceof AppError && error.errName === 'NotAllowed') {
          const { documentType, documentId, action } = request.body;
          await writeRefusal(db, actorOf(request), {
            planId: session.user.plan_id,
            domain: 'ElectronicSignature',
            action: 'SignatureRefused',
            entityId: documentId,
            values: {
              documentType,
              documentId,
              attempted: action,
              refusal: 'NotAllowed',
              why: 'not granted this facility',
              facility,
            },
          });
        }
        throw error;
      }
      return sign(
        db,
        config,
        await signingKey(),
        actorOf(request),
        { planId: plan, facilityId: facility },
        request.body,
      );
    },
  );

  r.get(
    `${F}/signatures`,
    {
      preHandler: readsSignatures(context),
      schema: {
        tags,
        summary: 'The signatures of a controlled record or an equipment release, oldest first',
        description:
          '`valid` is computed on every read: false when the stored version no longer hashes to the signed `contentHash`, or when no entry of the audit hash chain binds the signature with the right MAC (a row written by other means than signing). `documentType` EquipmentRelease with the item id as `documentId` lists the releases of an equipment item (meaning Release equipment, `versionNumber` counting its releases), checked against the Released entries of its logbook; a release signed before the signatures kept releases (its entry keeps the printed name, meaning and hash) is listed too, with the negated id of its entry, valid only while its entry still hashes to what was signed and the audit hash chain holds the entry’s Released row with the same name, meaning and hash (no MAC was made for it). Needs the right to read records of the type.',
        params: ZFacilityParams,
        querystring: ZSignaturesQuery,
        response: { 200: ZSignaturesResponse },
      },
    },
    async (request) => {
      const { facility } = request.params;
      const { documentType, documentId } = request.query;
      return {
        signatures: await listSignatures(db, await signingKey(), {
          facilityId: facility,
          documentType,
          documentId,
        }),
      };
    },
  );

  r.get(
    `${F}/signatures/pending`,
    {
      preHandler: permitMember(),
      schema: {
        tags,
        summary: 'My approvals: the record versions waiting for my signature in this facility',
        params: ZFacilityParams,
        response: { 200: ZPendingApprovalsResponse },
      },
    },
    async (request) => {
      const { facility } = request.params;
      const session = sessionOf(request);
      const items = await pendingApprovals(
        db,
        facility,
        await signerIn(db, session.user.id, facility),
      );
      return { items, count: items.length };
    },
  );

  r.get(
    `${F}/signatures/eligibility`,
    {
      preHandler: readsSignatures(context),
      schema: {
        tags,
        summary: 'Whether the current version of a record waits for my signature, and if not why',
        description:
          'What the record screen offers: `action` Review or Approve when the version in review or approval waits for this user (Reject may be signed beside it), otherwise null with the reason the sign route would refuse (a step for other roles, a step already signed, self-approval).',
        params: ZFacilityParams,
        querystring: ZRecordQuery,
        response: { 200: ZSignEligibility },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const { documentType, documentId } = request.query;
      if (!documentTypeRegistration(documentType))
        throw new AppError('NotFoundError', `No records of type ${documentType} are kept yet`);
      return signingChoice(
        db,
        await signingKey(),
        { planId: plan, facilityId: facility, documentType, documentId },
        sessionOf(request).user.id,
      );
    },
  );

  registerRecordPdfRoute(context);
}
