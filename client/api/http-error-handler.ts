import { interruptSession } from '../session/session-store.ts';
import { ApiError } from './api-error.ts';
import type { ServerErrorBody } from './api-error.ts';
import { showWarning } from './warning-message.ts';

export const SESSION_EXPIRED_WARNING = 'Session Expired. Login again!';
export const SIMULTANEOUS_SESSION_WARNING = 'Logged Out. You are logged in on a different device!';

export interface HandlerOptions {
  /** Names the action in the not-allowed message, e.g. 'Loading facilities'. */
  action?: string | undefined;
  /** Logout must not warn about the very session it is ending. */
  quiet?: boolean | undefined;
}

function serverError(status: number, body: ServerErrorBody): ApiError {
  return new ApiError('server', status, body.message ?? `Request failed (${status})`, body);
}

/**
 * Spec §8 "HTTP handling", one status at a time. Always throws: the caller's promise rejects
 * with the ApiError this builds.
 */
export function handleHttpError(
  status: number,
  body: ServerErrorBody,
  options: HandlerOptions = {},
): never {
  const action = options.action ?? 'Request';
  switch (status) {
    case 419:
      // The page stays for signing in again (SignInAgainModal); a burst of failures warns once.
      if (!options.quiet && interruptSession('elsewhere'))
        showWarning(SIMULTANEOUS_SESSION_WARNING);
      throw serverError(status, body);
    case 400:
    case 409:
    case 422:
      throw serverError(status, body);
    case 401:
      if (!options.quiet && interruptSession('expired')) showWarning(SESSION_EXPIRED_WARNING);
      // Then handled as 403.
      throw new ApiError(
        'not-allowed',
        status,
        `${action} failed as current user is not allowed`,
        body,
      );
    case 403:
      throw new ApiError(
        'not-allowed',
        status,
        `${action} failed as current user is not allowed`,
        body,
      );
    case 404:
      if (body.errName === 'NotFoundError') {
        throw new ApiError(
          'resource-not-found',
          status,
          body.message ?? 'The requested resource was not found.',
          body,
        );
      }
      throw new ApiError(
        'server-unreachable',
        status,
        'The server could not be reached. Please try again shortly.',
        body,
      );
    case 500:
      throw new ApiError(
        'server-error',
        status,
        body.message ?? 'An unexpected error occurred on the server.',
        body,
      );
    default:
      throw new ApiError(
        'uncategorised',
        status,
        body.message ?? `The request failed with status ${status}.`,
        body,
      );
  }
}
