import { appendFileSync } from 'node:fs';
import { registerJobHandler } from '../jobs/jobs.ts';

/**
 * A job that takes a while and notes each run's start and end in a file outside the database,
 * for tests that kill the process running it. Loaded before server/main.ts
 * (`startServerProcess(env, { preload: ['server/test/slow-job.ts'] })`).
 */
registerJobHandler<{ file: string; steps: number; stepMs: number }>(
  'test.slow',
  async ({ file, steps, stepMs }, ctx) => {
    appendFileSync(file, `start ${process.pid} ${Date.now()}\n`);
    for (let step = 0; step < steps; step += 1) {
      await ctx.progress({ stage: 'Computing limits', done: step, total: steps });
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    }
    await ctx.db.transaction((tx) =>
      ctx.complete(tx, { stage: 'Done', done: steps, total: steps }),
    );
    appendFileSync(file, `end ${process.pid} ${Date.now()}\n`);
  },
);
