import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { Mailer } from '../util/mailer.ts';

/** What every route module receives: the app with zod types, the database and the configuration. */
export interface AppContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  mailer: Mailer;
  requireSession: Guard;
  /** Session, facility of the path, and this permission in it (spec §6). */
  permit: (resource: string, action: string) => Guard;
  /** Session and this permission in any facility of the user's plan (plan-wide data: users). */
  permitPlan: (resource: string, action: string) => Guard;
}

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
