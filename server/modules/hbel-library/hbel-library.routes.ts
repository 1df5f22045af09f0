import type { FastifyRequest } from 'fastify';
import { ZFacilityParams, ZPlanParams } from '#core/schemas/auth.schemas.ts';
import { ZId, ZListQuery } from '#core/schemas/common.schemas.ts';
import {
  ZActiveHbelLink,
  ZCreateHbelMonograph,
  ZHbelLibrary,
  ZHbelLinkRequest,
  ZHbelMonograph,
  ZHbelParams,
  ZHbelVersions,
  ZHbelWhereUsed,
  ZNewHbelVersion,
} from '#core/schemas/hbel-library.schemas.ts';
import { registerReadExtras } from '#server/entities/read-extras.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { registerSignedAct } from '#server/records/signature-write.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, assertPlan, sessionOf } from '#server/http/session-guard.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { registerHbelChanges } from './hbel-change.ts';
import {
  lineages,
  linkActive,
  OVERRIDE_MEANING,
  overridesSigned,
  refuseLinkedPdeEdits,
} from './active-link.ts';
import {
  createMonograph,
  listMonographs,
  monographVersions,
  monographWhereUsed,
  newMonographVersion,
  readMonograph,
  registerHbelType,
} from './hbel-monographs.ts';

const TAGS = ['hbel-library'];
const LIBRARY = '/api/v2/plans/:plan/hbel-library';

/**
 * The plan of the path, which must be the user's: the library is plan-wide data, guarded like
 * the plan's other records (users, facilities) by a permission held in any facility of the plan.
 */
function planOf(request: FastifyRequest): number {
  const { plan } = request.params as { plan: number };
  assertPlan(sessionOf(request), plan);
  return plan;
}

/** The plan's HBEL library (issue 32) and the link of a facility's active to one of its entries. */
export function registerHbelLibraryRoutes({
  app,
  db,
  config,
  permit,
  permitPlan,
}: AppContext): void {
  const r = typed(app);
  registerHbelType(registerHbelChanges(db.kind));
  registerReadExtras('actives', lineages);
  refuseLinkedPdeEdits();
  // A site override is an electronic signature among the others (GET signatures, the audit verify).
  registerSignedAct('HbelOverride', { resource: 'API', signedContent: overridesSigned });
  const signing = {
    config,
    key: () => signatureKey(config, (message) => app.log.warn(message)),
  };

  r.get(
    LIBRARY,
    {
      preHandler: permitPlan('API', 'Get'),
      schema: {
        tags: TAGS,
        summary:
          "The plan's HBEL monographs, each with its version in force and its draft (API Get)",
        params: ZPlanParams,
        querystring: ZListQuery.pick({ search: true }),
        response: { 200: ZHbelLibrary },
      },
    },
    async (request) => listMonographs(db, planOf(request), request.query.search),
  );

  r.post(
    LIBRARY,
    {
      preHandler: permitPlan('API', 'Add'),
      schema: {
        tags: TAGS,
        summary:
          'Create a monograph (version 1, being built); the PDE is computed per EMA 2014 §4.1 and signed in the signing facility (API Add)',
        params: ZPlanParams,
        body: ZCreateHbelMonograph,
        response: { 200: ZHbelMonograph },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        createMonograph(tx, actorOf(request), planOf(request), request.body),
      ),
  );

  r.get(
    `${LIBRARY}/:id`,
    {
      preHandler: permitPlan('API', 'Get'),
      schema: {
        tags: TAGS,
        summary:
          'One monograph: its version in force, its draft, each with the PDE derivation (API Get)',
        params: ZHbelParams,
        response: { 200: ZHbelMonograph },
      },
    },
    async (request) => readMonograph(db, planOf(request), request.params.id),
  );

  r.post(
    `${LIBRARY}/:id`,
    {
      preHandler: permitPlan('API', 'Modify'),
      schema: {
        tags: TAGS,
        summary:
          'A new version of a monograph (or the version being built changed), with a reason; the approved one stays in force until it is signed (API Modify)',
        params: ZHbelParams,
        body: ZNewHbelVersion,
        response: { 200: ZHbelMonograph },
      },
    },
    async (request) =>
      newMonographVersion(db, actorOf(request), planOf(request), request.params.id, request.body),
  );

  r.get(
    `${LIBRARY}/:id/versions`,
    {
      preHandler: permitPlan('API', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'Every version of a monograph as its signers saw it, with its PDE (API Get)',
        params: ZHbelParams,
        response: { 200: ZHbelVersions },
      },
    },
    async (request) => monographVersions(db, planOf(request), request.params.id),
  );

  r.get(
    `${LIBRARY}/:id/where-used`,
    {
      preHandler: permitPlan('API', 'Get'),
      schema: {
        tags: TAGS,
        summary: "The actives of the plan's facilities linked to the monograph (API Get)",
        params: ZHbelParams,
        response: { 200: ZHbelWhereUsed },
      },
    },
    async (request) => monographWhereUsed(db, planOf(request), request.params.id),
  );

  r.put(
    '/api/v2/plans/:plan/facilities/:facility/apis/:id/hbel-link',
    {
      preHandler: permit('API', 'Modify'),
      schema: {
        tags: TAGS,
        summary:
          "Link the active to a library entry's approved version, override its PDE with a signed justification, or unlink it (API Modify)",
        description: `An override (\`pdeOverride\` with its \`justification\`) is an electronic signature (meaning '${OVERRIDE_MEANING}', listed by GET signatures with documentType HbelOverride and the active's id): the signer re-enters their password (or gives a single sign-on proof) and needs ApprovalPolicy Sign besides API Modify (403 NotAllowed). While a change assessment opened by a newer version of the entry is open, moving the active to that version here (or overriding on it) is 409 TransactionLocked: it moves by the assessment's approval. The active's read, the limits' derivations and the limits reports show the lineage: the entry and its version, the library's PDE, the site's PDE, the justification and who signed it.`,
        params: ZFacilityParams.extend({ id: ZId }),
        body: ZHbelLinkRequest,
        response: { 200: ZActiveHbelLink },
      },
    },
    async (request) =>
      linkActive(
        db,
        signing,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        request.params.id,
        request.body,
      ),
  );
}
