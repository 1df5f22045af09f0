import { AppError } from '#core/errors/errors.ts';
import { ZJobParams, ZJobResponse, type TJob } from '#core/schemas/jobs.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { maybeOne } from '#server/db/db.ts';
import { WORKER_ALIVE } from '#server/jobs/jobs.ts';
import { startJobWorker, type JobWorker, type JobWorkerOptions } from '#server/jobs/worker.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/**
 * The job route, and this instance's worker: it starts when the app is ready and stops when the
 * app closes (before the database does).
 */
export function registerJobs(
  { app, db, config, permitMember }: AppContext,
  workerOptions: JobWorkerOptions = {},
): void {
  let worker: JobWorker | undefined;
  app.addHook('onReady', async () => {
    worker = await startJobWorker(db, {
      log: app.log,
      heartbeatIntervalMs: config.JOB_HEARTBEAT_SECONDS * 1000,
      staleAfterMs: config.JOB_STALE_SECONDS * 1000,
      ...workerOptions,
    });
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });

  // A job's progress carries no GMP data: anyone granted the facility may follow it.
  const facilityMember = permitMember();

  typed(app).get(
    `${F}/jobs/:id`,
    {
      preHandler: facilityMember,
      schema: {
        tags: ['jobs'],
        summary: 'How far a background job is (any user of the facility)',
        params: ZJobParams,
        response: { 200: ZJobResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const job = await maybeOne<TJob>(
        db,
        `select id, name, state, stage, done, total, error, ${WORKER_ALIVE} as "workerAlive"
           from job_runs j where id = $1 and facility_id = $2`,
        [id, facility],
      );
      if (!job) throw new AppError('NotFoundError', 'No such job in this facility');
      return { job };
    },
  );
}
