import { isApiError } from '../api/api-error.ts';

/**
 * Texts of spec §8 "Login and recovery". Where the spec says "server message shown" the
 * server's message is relayed as is.
 */
export function loginErrorMessage(error: unknown): string {
  if (!isApiError(error)) return 'The server could not be reached. Please try again shortly.';
  switch (error.errName) {
    case 'RequestingUserNotfound':
      return 'Email address/ Employee ID is not recognized';
    case 'UserBlockedError':
      return 'User is blocked. Please contact your administrator';
    case 'ChangePasswordOnFirstLogin':
      return 'You are logging in for the first time, you will be redirected to change your password shortly';
    case 'ChangePasswordOnPasswordExpiry':
      return 'Your password has been expired, you will be redirected to change your password shortly';
    case 'PasswordAlreadyUsed':
      return 'The password you entered was previously used, please use a different password for better security';
    case 'InvalidToken':
      return 'The secret key you entered is invalid. Please contact your administrator';
    default:
      // LoginAttemptsExceeded, InvalidEmailOrPasswordError and everything else: the server's words.
      return error.message;
  }
}

/** Spec §8 "Reset password failures". */
export function resetFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    switch (error.errName) {
      case 'UserBlockedError':
        return 'You have been blocked';
      case 'PasswordResetLinkExpiredError':
        return 'Password reset link has expired';
      case 'PasswordAlreadyUsed':
        return 'Password already used';
      case 'InvalidToken':
        return 'Please make sure you have used a valid reset password link that is not older than 24 hours, Otherwise please go ahead and reset it again.';
      case 'PasswordMinLengthError':
      case 'PasswordNotComplexError':
        return error.message;
      default:
        break;
    }
  }
  return 'Please make sure your password consists of atleast 8 characters.';
}

export const RESET_LINK_SENT = {
  title: 'Reset Link Generated Successfully',
  description: 'Please check you mail for further instructions.',
} as const;

export const FORGOT_FAILED_TITLE = 'Failed to Generate Reset Link';
export const DEFAULT_ERROR_TITLE = 'Error Occurred';
