import type { FastifyRequest } from 'fastify';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZAsOfQuery } from '#core/schemas/versions.schemas.ts';
import {
  ZEquipmentOverrideParams,
  ZEquipmentWorstProduct,
  ZEquipmentWorstProducts,
  ZTrainOverrideParams,
  ZTrainWorstProduct,
  ZTrainWorstProducts,
  ZWithdrawOverrideQuery,
  ZWorstProductOverrideRequest,
} from '#core/schemas/worst-products.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { registerSignedAct } from '#server/records/signature-write.ts';
import { signWorstOverride, withdrawWorstOverride } from './worst-product-override.write.ts';
import type { Target } from './worst-product-override.write.ts';
import { WORST_OVERRIDE_MEANING, worstOverridesSigned } from './worst-product-overrides.ts';
import { equipmentWorstProducts, trainWorstProducts } from './worst-products.service.ts';

const base = '/api/v2/plans/:plan/facilities/:facility/worst-products';
const tags = ['limits'];
const units = { lowestMaco: 'mg' as const };

const computedText =
  'computed by the worst-case ranking’s selection criteria in priority order (highest risk score, then lowest MACO, without any), with the criterion that set it apart from the next worst and both values (`computed.reason`), and the override in force (`override`, null without one) with its lineage: the computed product, the chosen one, both lowest MACOs, the limit the study is judged against, the justification and the signer. `worstCase` is the product the group is validated on.';
const overrideText = `The signer re-enters their password (or gives a single sign-on proof) and needs ApprovalPolicy Sign (403 NotAllowed); the signature's meaning is '${WORST_OVERRIDE_MEANING}'. 422 DataValidationError on \`productId\` for a product not made on the target, the computed worst itself, or one whose lowest MACO is less strict than the computed worst's (or not computable) unless \`keepComputedLimit\` keeps the computed worst's limit for its study: an override never loosens a limit (EU GMP Annex 15 §10.12, ICH Q9). 409 VersionConflictError when the override in force is not the one the request saw.`;

const scopeOf = (request: FastifyRequest) => {
  const { plan, facility } = request.params as { plan: number; facility: number };
  return { planId: plan, facilityId: facility };
};

/** The worst-case product of each train and item of equipment, and their signed overrides. */
export function registerWorstProductRoutes({ app, db, config, permit }: AppContext): void {
  const r = typed(app);
  // An override is an electronic signature among the others (GET signatures, the audit verify).
  // Those signed on a production before overrides followed trains still read and verify.
  registerSignedAct('WorstProductOverride', {
    resource: 'WorstProductOverride',
    signedContent: worstOverridesSigned,
  });
  registerSignedAct('TrainWorstProductOverride', {
    resource: 'WorstProductOverride',
    signedContent: worstOverridesSigned,
  });
  registerSignedAct('EquipmentWiseWorstProduct', {
    resource: 'EquipmentWiseWorstProduct',
    signedContent: worstOverridesSigned,
  });
  const signing = {
    config,
    key: () => signatureKey(config, (message) => app.log.warn(message)),
  };

  r.get(
    `${base}/trains`,
    {
      preHandler: permit('WorstProductOverride', 'Get'),
      schema: {
        tags,
        summary: 'The worst-case product of each train (production)',
        description: `For each production, of the products made on it: the worst-case product ${computedText} \`asOf\` answers as it was then.`,
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZTrainWorstProducts },
      },
    },
    async (request) => ({
      ...(await trainWorstProducts(db, request.params.facility, request.query)),
      units,
    }),
  );

  r.get(
    `${base}/equipment`,
    {
      preHandler: permit('EquipmentWiseWorstProduct', 'Get'),
      schema: {
        tags,
        summary: 'The worst-case product of each item of equipment',
        description: `For each item, of the products of the productions it is in: the worst-case product ${computedText} \`asOf\` answers as it was then.`,
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZEquipmentWorstProducts },
      },
    },
    async (request) => ({
      ...(await equipmentWorstProducts(db, request.params.facility, request.query)),
      units,
    }),
  );

  const trainOf = (request: FastifyRequest): Target => ({
    kind: 'train',
    productionId: (request.params as { productionId: number }).productionId,
  });
  const itemOf = (request: FastifyRequest): Target => ({
    kind: 'equipment',
    equipmentId: (request.params as { equipmentId: number }).equipmentId,
  });

  for (const side of [
    {
      path: `${base}/trains/:productionId/override`,
      resource: 'WorstProductOverride' as const,
      params: ZTrainOverrideParams,
      response: ZTrainWorstProduct,
      target: trainOf,
      what: 'a train',
    },
    {
      path: `${base}/equipment/:equipmentId/override`,
      resource: 'EquipmentWiseWorstProduct' as const,
      params: ZEquipmentOverrideParams,
      response: ZEquipmentWorstProduct,
      target: itemOf,
      what: 'an item of equipment',
    },
  ]) {
    const sign = (mode: 'add' | 'replace') => (request: FastifyRequest) =>
      signWorstOverride(
        db,
        signing,
        actorOf(request),
        scopeOf(request),
        side.target(request),
        request.body as never,
        mode,
      );
    r.post(
      side.path,
      {
        preHandler: permit(side.resource, 'Add'),
        schema: {
          tags,
          summary: `Choose another worst-case product for ${side.what}, justified and signed (${side.resource} Add)`,
          description: `${overrideText} 409 when an override is in force already: replace it (PUT); 422 on \`replaces\` when given.`,
          params: side.params,
          body: ZWorstProductOverrideRequest,
          response: { 200: side.response },
        },
      },
      sign('add'),
    );
    r.put(
      side.path,
      {
        preHandler: permit(side.resource, 'Modify'),
        schema: {
          tags,
          summary: `Replace the override in force for ${side.what} (\`replaces\`), signed (${side.resource} Modify)`,
          description: `${overrideText} 422 on \`replaces\` when it is missing.`,
          params: side.params,
          body: ZWorstProductOverrideRequest,
          response: { 200: side.response },
        },
      },
      sign('replace'),
    );
    r.delete(
      side.path,
      {
        preHandler: permit(side.resource, 'Delete'),
        schema: {
          tags,
          summary: `Withdraw the override in force for ${side.what}, with a reason (${side.resource} Delete)`,
          description:
            'The computed worst case applies again; the override stays kept as signed, ended with who, when and why. 409 VersionConflictError when `overrideId` is not the override in force.',
          params: side.params,
          querystring: ZWithdrawOverrideQuery,
          response: { 200: side.response },
        },
      },
      (request) =>
        withdrawWorstOverride(
          db,
          actorOf(request),
          scopeOf(request),
          side.target(request),
          request.query as { overrideId: number; reason: string },
        ),
    );
  }
}
