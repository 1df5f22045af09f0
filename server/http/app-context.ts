import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { Mailer } from '../util/mailer.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';
import type { ActionOf, NamedBy } from './permission-guards.ts';

/** What every route module receives: the app with zod types, the database and the configuration. */
export interface AppContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  mailer: Mailer;
  /**
   * The guards a route declares as its `preHandler` (permission-guards.ts); a route without one
   * must be declared public (route-guard.ts).
   */
  requireSession: Guard;
  /** Session, facility of the path, and this permission in it (spec §6). */
  permit: (resource: GuardResource, action: ActionOf) => Guard;
  /** Session, facility of the path, and any one of these permissions in it. */
  permitAny: (
    choices: (request: FastifyRequest) => [GuardResource, string][],
    refusal?: (request: FastifyRequest) => string,
  ) => Guard;
  /** Session and a grant of the facility of the path, whatever its roles allow. */
  permitMember: () => Guard;
  /** Session, a grant of the facility, and the permission the request names, if any. */
  permitNamed: (named: NamedBy) => Guard;
  /** Session and this permission in any facility of the user's plan (plan-wide data: users). */
  permitPlan: (resource: GuardResource, action: ActionOf) => Guard;
  /** Session, the plan of the path, and a system administrator. */
  permitSystemAdmin: (resource: GuardResource, action: string) => Guard;
}

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
