import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZRunResponse, type TRun } from '#core/schemas/verification.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { typed, type Guard } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { getRun } from './runs/runs.read.ts';

/** What the verification routes (studies, runs, inspections, microbial results) share. */
export const F = '/api/v2/plans/:plan/facilities/:facility';
export const TAGS = ['runs'];
/** Protocols, studies and runs are guarded by the qualification task's permissions. */
export const RESOURCE = 'QualificationTask';
export const ZIdParams = ZFacilityParams.extend({ id: ZId });
export const scopeOf = (params: { plan: number; facility: number }) => ({
  planId: params.plan,
  facilityId: params.facility,
});

/** A write about a run that answers the run as it then stands (`ZRunResponse`). */
export interface RunWrite<B extends z.ZodType> {
  path: string;
  guard: Guard;
  summary: string;
  description?: string;
  body: B;
  /**
   * Writes and returns the id of the run it touched, or the run itself as read in the write's
   * transaction (then not read again).
   */
  write: (
    actor: Actor,
    scope: { planId: number; facilityId: number },
    id: number,
    body: z.infer<B>,
  ) => Promise<number | TRun>;
}

/** Registers the runs' writes of one shape: POST `{F}/{path}` with an id, answered by the run. */
export function runWriteRoutes(app: FastifyInstance, db: Db, writes: RunWrite<z.ZodType>[]) {
  const r = typed(app);
  for (const w of writes) {
    r.post(
      `${F}/${w.path}`,
      {
        preHandler: w.guard,
        schema: {
          tags: TAGS,
          summary: w.summary,
          ...(w.description ? { description: w.description } : {}),
          params: ZIdParams,
          body: w.body,
          response: { 200: ZRunResponse },
        },
      },
      async (request) => {
        const { facility, id } = request.params;
        const written = await w.write(actorOf(request), scopeOf(request.params), id, request.body);
        return {
          run: typeof written === 'number' ? await getRun(db, facility, written) : written,
        };
      },
    );
  }
}

/** Keeps a write's body type when it joins a list of writes of other bodies. */
export const runWrite = <B extends z.ZodType>(w: RunWrite<B>) =>
  w as unknown as RunWrite<z.ZodType>;
