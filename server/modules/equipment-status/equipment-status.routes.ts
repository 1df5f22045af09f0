import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  RELEASE_MEANING,
  ZEquipmentStatusQuery,
  ZEquipmentStatusResponse,
  ZLogbookEntry,
  ZLogbookParams,
  ZLogbookRequest,
  ZLogbookResponse,
  ZEquipmentStatusItem,
} from '#core/schemas/equipment-status.schemas.ts';
import { z } from 'zod';
import { ZChangeover, ZChangeoverQuery } from '#core/schemas/changeover.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { changeoverDecision } from './changeover.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { registerSignedAct } from '#server/records/signature-write.ts';
import {
  earlierReleaseSignatures,
  listEquipmentStatus,
  listTrainStatus,
  readLogbook,
  releasesSigned,
  releaseAsVersion,
} from './logbook.read.ts';
import { equipmentItem, recordEntry } from './logbook.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Equipment status'];

/**
 * Issue 31: the status board and the cleaning and use log of each item. `now` is the clock the
 * states are judged by (the server's; a test gives its own).
 */
export function registerEquipmentStatusRoutes(
  { app, db, config, permit }: AppContext,
  now: () => Date = () => new Date(),
): void {
  const r = typed(app);
  // A release is an electronic signature among the others (GET signatures, the audit verify).
  registerSignedAct('EquipmentRelease', {
    resource: 'Equipment',
    signedContent: releasesSigned,
    earlierSignatures: earlierReleaseSignatures,
    printedVersion: releaseAsVersion,
  });
  const signing = {
    config,
    key: () => signatureKey(config, (message) => app.log.warn(message)),
  };

  r.get(
    `${F}/equipment-status`,
    {
      preHandler: permit('Equipment', 'Get'),
      schema: {
        tags,
        summary: 'The state of every equipment item, derived from its logbook',
        description:
          'Each live item with its state (`InUse`, `Dirty`, `Cleaning`, `CleanAwaitingRelease`, `Released`, `HoldExpired`, `Blocked`), since when, the last product and batch, the dirty-hold deadline and the clean-hold expiry, and why it may not be used now (`blockingReasons`, empty only when Released). `trains` gives each production (train) the state of its least ready item, with every item’s reasons. `state` filters both by state, `productionId` by line (the production’s equipment). Needs Equipment Get.',
        params: ZFacilityParams,
        querystring: ZEquipmentStatusQuery,
        response: { 200: ZEquipmentStatusResponse },
      },
    },
    async (request) => {
      const { state, productionId } = request.query;
      const items = await listEquipmentStatus(
        db,
        request.params.facility,
        now(),
        productionId ?? null,
      );
      const trains = await listTrainStatus(
        db,
        request.params.facility,
        items,
        productionId ?? null,
      );
      return {
        items: state ? items.filter((i) => i.state === state) : items,
        trains: state ? trains.filter((t) => t.state === state) : trains,
      };
    },
  );

  r.get(
    `${F}/equipment/:id/logbook`,
    {
      preHandler: permit('Equipment', 'Get'),
      schema: {
        tags,
        summary: 'The cleaning and use log of an item, oldest first, with its state',
        description:
          'Never edited: a correction is a new entry (`correctsId`) and the corrected one shows `correctedBy`. Needs Equipment Get.',
        params: ZLogbookParams,
        response: { 200: ZLogbookResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      return readLogbook(db, facility, await equipmentItem(db, facility, id), now());
    },
  );

  r.post(
    `${F}/equipment/:id/logbook`,
    {
      preHandler: permit('Equipment', 'Modify'),
      schema: {
        tags,
        summary: 'Record a use, cleaning, release, block or correction in the logbook',
        description: `Every entry names who and when (the server's time; an earlier \`at\` needs a reason and is marked back-dated; no entry is dated before the last one). \`UseStarted\` (product and batch) on an item that is not Released, whose clean hold has expired, or whose changeover from the last product made on it is not covered by a Validated study (GET changeovers; unless the release was judged on a verification run of that cleaning), is refused with 409 EquipmentNotReleased and the reasons in \`otherErrors\`. \`Released\` is an electronic signature (meaning '${RELEASE_MEANING}', listed by GET signatures with documentType EquipmentRelease and the item's id): the signer re-enters their password, needs ApprovalPolicy Sign besides Equipment Modify, and may not be who recorded the CleaningEnded (403 NotAllowed); it is refused (409 EquipmentNotReleased) while the cleaning's verification run (\`runId\`, or the CleaningEnded's) is CAN_NOT_BE_RELEASED, and marked \`releasedAtRisk\` when it is MAY_BE_RELEASED. An entry that cannot follow the state is 422 on \`event\`. Needs Equipment Modify.`,
        params: ZLogbookParams,
        body: ZLogbookRequest,
        response: { 200: z.object({ entry: ZLogbookEntry, status: ZEquipmentStatusItem }) },
      },
    },
    async (request) => {
      const { plan, facility, id } = request.params;
      return recordEntry(
        db,
        signing,
        actorOf(request),
        { planId: plan, facilityId: facility },
        id,
        request.body,
        now(),
      );
    },
  );

  r.get(
    `${F}/changeovers`,
    {
      preHandler: permit('Equipment', 'Get'),
      schema: {
        tags,
        summary: 'The changeover decision: limits, procedure, validated or not, what to sample',
        description:
          'For product `from` followed by product `to` on production `production`: the pair’s MACO, surface limit (sal), swab and rinse limits with their units and the governing criterion, exactly as the production’s MAC matrix has them; the cleaning procedure of the protocol that covers the cleaning after `from`; `validated` when every item of the production is covered for `from` by a Validated study not past its periodic verification, else `verificationRequired` with the `reasons` in words; and the sampling plan (the covering protocol’s on these items, else the items’ sampling locations), each sample with the pair’s limit for its sample type (a swab at a location with a swab area of its own, or of its sampling type, over that area). Unknown product or production, or a pair the production does not make: 404; a product the engine cannot compute: 422. Needs Equipment Get.',
        params: ZFacilityParams,
        querystring: ZChangeoverQuery,
        response: { 200: ZChangeover },
      },
    },
    async (request) => changeoverDecision(db, request.params.facility, request.query, now()),
  );
}
