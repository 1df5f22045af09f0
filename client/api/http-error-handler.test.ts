import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.ts';

const showWarning = vi.fn();
const interruptSession = vi.fn(() => true);
vi.mock('./warning-message.ts', () => ({ showWarning }));
vi.mock('../session/session-store.ts', () => ({ interruptSession }));

const { handleHttpError } = await import('./http-error-handler.ts');

function caught(status: number, body = {}, options = {}): ApiError {
  try {
    handleHttpError(status, body, options);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('handleHttpError returned');
}

describe('handleHttpError (spec §8 HTTP handling)', () => {
  beforeEach(() => {
    showWarning.mockClear();
    interruptSession.mockClear();
  });

  it('419: warns about the other device, ends the session, rethrows the server error', () => {
    const error = caught(419, { errName: 'SimultaneousSession', message: 'elsewhere' });
    expect(showWarning).toHaveBeenCalledWith(
      'Logged Out. You are logged in on a different device!',
    );
    expect(interruptSession).toHaveBeenCalledOnce();
    expect(error).toMatchObject({ kind: 'server', status: 419, errName: 'SimultaneousSession' });
  });

  it.each([400, 409, 422])('%i: rethrows the server error untouched', (status) => {
    const errors = [{ property: 'name', constraints: { isNotEmpty: 'name is required' } }];
    const error = caught(status, { errName: 'DataValidationError', message: 'bad', errors });
    expect(error).toMatchObject({ kind: 'server', status, message: 'bad', errors });
    expect(showWarning).not.toHaveBeenCalled();
    expect(interruptSession).not.toHaveBeenCalled();
  });

  it('401: warns that the session expired, ends it, then fails as not allowed', () => {
    const error = caught(401, { errName: 'SessionExpired' }, { action: 'Loading facilities' });
    expect(showWarning).toHaveBeenCalledWith('Session Expired. Login again!');
    expect(interruptSession).toHaveBeenCalledOnce();
    expect(error).toMatchObject({
      kind: 'not-allowed',
      message: 'Loading facilities failed as current user is not allowed',
    });
  });

  it('403: not allowed, without touching the session', () => {
    const error = caught(403, { errName: 'NotAllowed' });
    expect(error).toMatchObject({
      kind: 'not-allowed',
      message: 'Request failed as current user is not allowed',
    });
    expect(interruptSession).not.toHaveBeenCalled();
  });

  it('404: resource not found only for NotFoundError, otherwise server unreachable', () => {
    expect(caught(404, { errName: 'NotFoundError', message: 'gone' }).kind).toBe(
      'resource-not-found',
    );
    expect(caught(404, {}).kind).toBe('server-unreachable');
  });

  it('500 is a server error and anything else is uncategorised', () => {
    expect(caught(500, {}).kind).toBe('server-error');
    expect(caught(429, { message: 'slow down' })).toMatchObject({
      kind: 'uncategorised',
      message: 'slow down',
    });
  });

  it('warns once when the session has already ended (a burst of failing calls)', () => {
    interruptSession.mockReturnValueOnce(false);
    caught(401, { errName: 'SessionExpired' });
    expect(interruptSession).toHaveBeenCalledWith('expired');
    expect(showWarning).not.toHaveBeenCalled();
  });

  it('quiet calls (logout) neither warn nor end the session again', () => {
    caught(401, {}, { quiet: true });
    caught(419, {}, { quiet: true });
    expect(showWarning).not.toHaveBeenCalled();
    expect(interruptSession).not.toHaveBeenCalled();
  });
});
