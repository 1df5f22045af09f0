import { describe, expect, it } from 'vitest';
import { isJobFinished, jobPercent, jobStageText } from './job-progress.ts';

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
});
