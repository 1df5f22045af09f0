import type { TJobProgress, TJobState } from '#core/schemas/jobs.schemas.ts';

/** A job in these states changes no more: the client stops polling. */
export function isJobFinished(state: TJobState): boolean {
  return state === 'done' || state === 'failed';
}

/** How much of the bar to fill: all of it once done, else done of total (nothing while unknown). */
export function jobPercent(progress: Pick<TJobProgress, 'state' | 'done' | 'total'>): number {
  if (progress.state === 'done') return 100;
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((progress.done / progress.total) * 100)));
}

/** The line above the bar: the stage the job reports, with its count when it has one. */
export function jobStageText(progress: TJobProgress): string {
  if (progress.state === 'queued') return 'Waiting to start…';
  const stage = progress.stage || (progress.state === 'done' ? 'Done' : 'Working…');
  return progress.total > 0 && progress.state === 'running'
    ? `${stage} (${progress.done} of ${progress.total})`
    : stage;
}

/**
 * What the screen says when no server is there for an unfinished job (its server stopped
 * answering, or no server runs jobs at all); null while one is, or once the job has ended.
 */
export function jobWorkerWarning(progress: TJobProgress): string | null {
  if (progress.workerAlive !== false || isJobFinished(progress.state)) return null;
  return progress.state === 'running'
    ? 'The server working on this has stopped answering. Another server takes the work over and starts it again within two minutes; with no other server, it starts again when Carryover is restarted.'
    : 'No server is running background work at the moment: this starts once Carryover is running again.';
}
