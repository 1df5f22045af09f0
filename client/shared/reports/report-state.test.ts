import { describe, expect, it } from 'vitest';
import { isReportFailed, isReportPending } from './report-state.ts';

const progress = (
  state: 'queued' | 'running' | 'done' | 'failed',
  error: string | null = null,
) => ({
  state,
  stage: '',
  done: 0,
  total: 3,
  error,
});

describe('A report being generated', () => {
  it.each([
    ['queued, no error', { completedAt: null, error: null, progress: progress('queued') }, true],
    ['running', { completedAt: null, error: null, progress: progress('running') }, true],
    // An attempt failed and wrote its error; pg-boss retries it: the job is queued again.
    [
      'retried after a failed attempt',
      { completedAt: null, error: 'connection lost', progress: progress('queued') },
      true,
    ],
    [
      'failed for good',
      { completedAt: null, error: 'boom', progress: progress('failed', 'boom') },
      false,
    ],
    [
      'completed',
      { completedAt: '2026-11-28T00:00:00Z', error: null, progress: progress('done') },
      false,
    ],
    ['without a job row, no error', { completedAt: null, error: null, progress: null }, true],
    ['without a job row, an error', { completedAt: null, error: 'boom', progress: null }, false],
  ])('%s: pending %s', (_name, report, pending) => {
    expect(isReportPending(report)).toBe(pending);
    expect(isReportFailed(report)).toBe(!pending && report.completedAt === null);
  });
});
