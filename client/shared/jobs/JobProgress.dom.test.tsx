import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ZJobResponse, type TJob } from '#core/schemas/jobs.schemas.ts';
import { answer, F, renderInApp, signIn } from '#client/test/dom-harness.tsx';
import { JobProgress } from './JobProgress.tsx';

// A job's progress on screen (issue 29): when no server is there to do an unfinished job, the
// screen says so, rather than showing a stage that nobody is working on.

const JOB_ID = '6f1c2f7e-1d3a-4a57-9a0e-2b6f0c9d1e11';
const running: TJob = {
  id: JOB_ID,
  name: 'cleaningAssessment',
  state: 'running',
  stage: 'Computing limits',
  done: 2,
  total: 5,
  error: null,
};

function answerJob(job: TJob) {
  answer('GET', `${F}/jobs/${JOB_ID}`, () => ZJobResponse.parse({ job }));
}

beforeEach(() => signIn());

describe('a job’s progress', () => {
  it('says nobody is working on it when the server running it stopped answering', async () => {
    answerJob({ ...running, workerAlive: false });
    renderInApp(<JobProgress jobId={JOB_ID} />);
    expect(await screen.findByText('Nobody is working on this now')).toBeTruthy();
    expect(
      screen.getByText(/has stopped answering\. Another server takes the work over/),
    ).toBeTruthy();
  });

  it('says so of a queued job when no server runs background work', async () => {
    answerJob({ ...running, state: 'queued', done: 0, workerAlive: false });
    renderInApp(<JobProgress jobId={JOB_ID} />);
    expect(await screen.findByText('Nobody is working on this now')).toBeTruthy();
    expect(screen.getByText(/No server is running background work at the moment/)).toBeTruthy();
  });

  it('shows only its stage while a server works on it', async () => {
    answerJob({ ...running, workerAlive: true });
    renderInApp(<JobProgress jobId={JOB_ID} />);
    expect(await screen.findByText('Computing limits (2 of 5)')).toBeTruthy();
    expect(screen.queryByText('Nobody is working on this now')).toBeNull();
  });
});
