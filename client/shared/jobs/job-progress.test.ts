import { describe, expect, it } from 'vitest';
import { isJobFinished, jobPercent, jobStageText, jobWorkerWarning } from './job-progress.ts';

const running = {
  state: 'running',
  stage: 'Computing limits',
  done: 1,
  total: 3,
  error: null,
} as const;

describe('job progress', () => {
  it('fills the bar by done of total, all of it once done', () => {
    expect(jobPercent(running)).toBe(33);
    expect(jobPercent({ ...running, total: 0 })).toBe(0);
    expect(jobPercent({ ...running, done: 5 })).toBe(100);
    expect(jobPercent({ ...running, state: 'done', done: 0, total: 0 })).toBe(100);
  });

  it('says what the job is doing', () => {
    expect(jobStageText(running)).toBe('Computing limits (1 of 3)');
    expect(jobStageText({ ...running, state: 'queued', stage: '' })).toBe('Waiting to start…');
    expect(jobStageText({ ...running, state: 'failed' })).toBe('Computing limits');
    expect(jobStageText({ ...running, state: 'done', stage: '' })).toBe('Done');
  });

  it('stops polling once done or failed', () => {
    expect(isJobFinished('running')).toBe(false);
    expect(isJobFinished('queued')).toBe(false);
    expect(isJobFinished('done')).toBe(true);
    expect(isJobFinished('failed')).toBe(true);
  });

  it('says when no server is working on an unfinished job', () => {
    expect(jobWorkerWarning({ ...running, workerAlive: true })).toBeNull();
    // Progress kept with a record from before heartbeats says nothing either way.
    expect(jobWorkerWarning(running)).toBeNull();
    expect(jobWorkerWarning({ ...running, workerAlive: false })).toMatch(
      /^The server working on this has stopped answering\. Another server takes the work over/,
    );
    expect(jobWorkerWarning({ ...running, state: 'queued', workerAlive: false })).toMatch(
      /^No server is running background work/,
    );
    expect(jobWorkerWarning({ ...running, state: 'done', workerAlive: false })).toBeNull();
    expect(jobWorkerWarning({ ...running, state: 'failed', workerAlive: false })).toBeNull();
  });
});
