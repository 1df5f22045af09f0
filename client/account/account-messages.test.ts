import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import type { ErrorName } from '#core/errors/errors.ts';
import { loginErrorMessage, resetFailureMessage } from './account-messages.ts';

function serverError(errName: ErrorName, message = 'from the server'): ApiError {
  return new ApiError('server', 400, message, { errName, message });
}

describe('loginErrorMessage (spec §8 Login and recovery)', () => {
  it.each<[ErrorName, string]>([
    ['RequestingUserNotfound', 'Email address/ Employee ID is not recognized'],
    ['UserBlockedError', 'User is blocked. Please contact your administrator'],
    [
      'ChangePasswordOnFirstLogin',
      'You are logging in for the first time, you will be redirected to change your password shortly',
    ],
    [
      'ChangePasswordOnPasswordExpiry',
      'Your password has been expired, you will be redirected to change your password shortly',
    ],
    ['InvalidToken', 'The secret key you entered is invalid. Please contact your administrator'],
  ])('%s → catalogue text', (name, text) => {
    expect(loginErrorMessage(serverError(name))).toBe(text);
  });

  it.each<ErrorName>(['LoginAttemptsExceeded', 'InvalidEmailOrPasswordError'])(
    '%s → the server message',
    (name) => {
      expect(loginErrorMessage(serverError(name, 'Locked for 15 minutes'))).toBe(
        'Locked for 15 minutes',
      );
    },
  );
});

describe('resetFailureMessage (spec §8 Reset password failures)', () => {
  it.each<[ErrorName, string]>([
    ['UserBlockedError', 'You have been blocked'],
    ['PasswordResetLinkExpiredError', 'Password reset link has expired'],
    ['PasswordAlreadyUsed', 'Password already used'],
    [
      'InvalidToken',
      'Please make sure you have used a valid reset password link that is not older than 24 hours, Otherwise please go ahead and reset it again.',
    ],
  ])('%s → catalogue text', (name, text) => {
    expect(resetFailureMessage(serverError(name))).toBe(text);
  });

  it('relays the server message for length and complexity', () => {
    expect(resetFailureMessage(serverError('PasswordMinLengthError', 'min 10'))).toBe('min 10');
    expect(resetFailureMessage(serverError('PasswordNotComplexError', 'one digit'))).toBe(
      'one digit',
    );
  });

  it('falls back to the length hint for anything else', () => {
    expect(resetFailureMessage(new Error('offline'))).toBe(
      'Please make sure your password consists of atleast 8 characters.',
    );
  });
});
