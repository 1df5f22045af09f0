import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { isAuditTrailProtected } from '../audit/audit-protection.ts';

export function registerHealthRoutes({ app, db }: AppContext): void {
  typed(app).get(
    '/api/v2/health',
    {
      config: { public: true },
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
        };
      } catch {
        throw new AppError('ServiceUnavailable', 'The database is not reachable');
      }
    },
  );
}
