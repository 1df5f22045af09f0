import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { appVersion } from '#server/util/app-version.ts';
import { isAuditTrailProtected } from '../audit/audit-protection.ts';
import { checkReadiness, type NotReady, type Ready } from './readiness.ts';

/**
 * Public (no guard): load balancers, monitors and sites' scripts call them without a session, some
 * with HEAD, which the app answers only where a route asks for it (app.ts).
 */
export function registerHealthRoutes({ app, db, config }: AppContext): void {
  typed(app).get(
    '/api/v2/health',
    {
      config: { public: true },
      exposeHeadRoute: true,
      schema: {
        tags: ['health'],
        summary: 'Answers once the database is reachable and migrations have run',
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.enum(['pglite', 'postgres']),
            migrations: z.number(),
            /** False when the app's database role could rewrite the audit trail. */
            auditTrailProtected: z.boolean(),
            /** This build's version (package.json). */
            version: z.string(),
          }),
        },
      },
    },
    async () => {
      try {
        const [row] = await db.query<{ n: number }>(
          'select count(*)::int as n from schema_migrations',
        );
        return {
          status: 'ok' as const,
          database: db.kind,
          migrations: row?.n ?? 0,
          auditTrailProtected: await isAuditTrailProtected(db),
          version: appVersion(),
        };
      } catch {
        throw new AppError('ServiceUnavailable', 'The database is not reachable');
      }
    },
  );

  typed(app).get(
    '/api/v2/health/live',
    {
      config: { public: true },
      exposeHeadRoute: true,
      schema: {
        tags: ['health'],
        summary: 'Answers while the process serves HTTP; reads nothing from the database',
        response: { 200: z.object({ status: z.literal('ok'), version: z.string() }) },
      },
    },
    () => ({ status: 'ok' as const, version: appVersion() }),
  );

  // Concurrent probes (several monitors, a load balancer per node) share one check, so that
  // probing never adds up to load on the database.
  let running: Promise<Ready | NotReady> | undefined;
  let lastProblem: string | undefined;
  typed(app).get(
    '/api/v2/health/ready',
    {
      config: { public: true },
      exposeHeadRoute: true,
      schema: {
        tags: ['health'],
        summary:
          'Answers 200 when the database answers, its migrations are this build’s and a test ' +
          'write is saved; 503 with the reason otherwise',
        response: {
          200: z.object({
            status: z.literal('ready'),
            database: z.enum(['pglite', 'postgres']),
            migrations: z.number(),
            version: z.string(),
          }),
        },
      },
    },
    async (request) => {
      // A server database keeps its files on its own host: only its own writes tell there.
      const dataDir = db.kind === 'pglite' ? config.DATA_DIR : undefined;
      running ??= checkReadiness(db, { dataDir }).finally(() => {
        running = undefined;
      });
      const result = await running;
      if ('check' in result) {
        // Probes come every few seconds: the reason is logged when it changes, not each time.
        const key = `${result.check}:${result.problem}`;
        if (key !== lastProblem) request.log.warn({ notReady: result }, 'not ready');
        lastProblem = key;
        throw new AppError('ServiceUnavailable', `Not ready: ${result.message}.`, {
          otherErrors: [{ check: result.check, problem: result.problem }],
        });
      }
      if (lastProblem) request.log.info('ready again');
      lastProblem = undefined;
      return {
        status: 'ready' as const,
        database: db.kind,
        migrations: result.migrations,
        version: appVersion(),
      };
    },
  );
}
