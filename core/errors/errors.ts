/**
 * The error catalogue of the specification (§8). One error type carries a name from this list;
 * `statusOf` maps every name to its HTTP status, and the switch is exhaustive so that adding a
 * name without a status breaks the build.
 */
export const ERROR_NAMES = [
  'DataValidationError',
  'SampleChangesError',
  'DuplicateEntryError',
  'DuplicateBatchNumber',
  'NothingToChangeError',
  'ArchivedEntryError',
  'VersionConflictError',
  'TransactionLocked',
  'EquipmentNotReleased',
  'RequestingUserNotfound',
  'InvalidEmailOrPasswordError',
  'UserBlockedError',
  'LoginAttemptsExceeded',
  'ChangePasswordOnFirstLogin',
  'ChangePasswordOnPasswordExpiry',
  'PasswordAlreadyUsed',
  'InvalidToken',
  'PasswordMinLengthError',
  'PasswordNotComplexError',
  'PasswordResetLinkExpiredError',
  'SessionExpired',
  'SimultaneousSession',
  'NotAllowed',
  'NotFoundError',
  'TooManyRequests',
  'ServiceUnavailable',
  'InternalServerError',
] as const;

export type ErrorName = (typeof ERROR_NAMES)[number];

/** One problem with one property of a request, as `DataValidationError.errors` lists them. */
export interface PropertyError {
  property: string;
  constraints: Record<string, string>;
}

/** The JSON body of every error response. */
export interface ErrorBody {
  errName: ErrorName;
  name: ErrorName;
  message: string;
  errors?: PropertyError[];
  otherErrors?: unknown[];
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}

export function statusOf(name: ErrorName): number {
  switch (name) {
    case 'DataValidationError':
    case 'SampleChangesError':
      return 422;
    case 'DuplicateEntryError':
    case 'DuplicateBatchNumber':
    case 'ArchivedEntryError':
    case 'VersionConflictError':
    case 'TransactionLocked':
    case 'EquipmentNotReleased':
      return 409;
    case 'NothingToChangeError':
    case 'RequestingUserNotfound':
    case 'InvalidEmailOrPasswordError':
    case 'UserBlockedError':
    case 'LoginAttemptsExceeded':
    case 'ChangePasswordOnFirstLogin':
    case 'ChangePasswordOnPasswordExpiry':
    case 'PasswordAlreadyUsed':
    case 'InvalidToken':
    case 'PasswordMinLengthError':
    case 'PasswordNotComplexError':
    case 'PasswordResetLinkExpiredError':
      return 400;
    case 'SessionExpired':
      return 401;
    case 'NotAllowed':
      return 403;
    case 'NotFoundError':
      return 404;
    case 'SimultaneousSession':
      return 419;
    case 'TooManyRequests':
      return 429;
    case 'ServiceUnavailable':
      return 503;
    case 'InternalServerError':
      return 500;
    default:
      return assertUnreachable(name);
  }
}

/** Default messages, used when a thrower gives none. Texts from the specification where it has one. */
export function defaultMessage(name: ErrorName): string {
  switch (name) {
    case 'DataValidationError':
      return 'The request has invalid values.';
    case 'SampleChangesError':
      return 'Some sample results have problems.';
    case 'DuplicateEntryError':
      return 'An entry with this value already exists.';
    case 'DuplicateBatchNumber':
      return 'Batch number must be unique across samples';
    case 'NothingToChangeError':
      return 'No changes have been made from the current values. Please check all fields and try again.';
    case 'ArchivedEntryError':
      return 'This entry is archived. Restore it from the archived list, or change the id to create a new one.';
    case 'VersionConflictError':
      return 'This record was changed by someone else since you opened it. Reload it and apply your change again.';
    case 'TransactionLocked':
      return 'This record is locked by another transaction. Try again shortly.';
    case 'EquipmentNotReleased':
      // Issue 31, the production hold (21 CFR 211.67): the reasons follow in otherErrors.
      return 'The equipment is not released for use.';
    case 'RequestingUserNotfound':
      return 'Email address/ Employee ID is not recognized';
    case 'InvalidEmailOrPasswordError':
      return 'Invalid Email/Employee ID or password';
    case 'UserBlockedError':
      return 'User is blocked. Please contact your administrator';
    case 'LoginAttemptsExceeded':
      return 'Your account is locked after too many failed login attempts. Try again later or contact your administrator.';
    case 'ChangePasswordOnFirstLogin':
      return 'You are logging in for the first time, you will be redirected to change your password shortly';
    case 'ChangePasswordOnPasswordExpiry':
      return 'Your password has been expired, you will be redirected to change your password shortly';
    case 'PasswordAlreadyUsed':
      return 'The password you entered was previously used, please use a different password for better security';
    case 'InvalidToken':
      return 'The secret key you entered is invalid. Please contact your administrator';
    case 'PasswordMinLengthError':
      return 'Your password must be minimum of 8 characters long';
    case 'PasswordNotComplexError':
      return 'Your password is not complex enough';
    case 'PasswordResetLinkExpiredError':
      return 'Password reset link has expired';
    case 'SessionExpired':
      return 'Session Expired. Login again!';
    case 'SimultaneousSession':
      return 'Logged Out. You are logged in on a different device!';
    case 'NotAllowed':
      return 'not allowed';
    case 'NotFoundError':
      return 'The requested resource was not found.';
    case 'TooManyRequests':
      return 'Too many requests. Please wait a moment and try again.';
    case 'ServiceUnavailable':
      return 'The service is starting or shutting down. Please try again shortly.';
    case 'InternalServerError':
      return 'An unexpected error occurred on the server.';
    default:
      return assertUnreachable(name);
  }
}

export class AppError extends Error {
  readonly errName: ErrorName;
  readonly status: number;
  readonly errors?: PropertyError[];
  readonly otherErrors?: unknown[];

  constructor(
    errName: ErrorName,
    message?: string,
    extra: { errors?: PropertyError[]; otherErrors?: unknown[] } = {},
  ) {
    super(message ?? defaultMessage(errName));
    this.name = errName;
    this.errName = errName;
    this.status = statusOf(errName);
    if (extra.errors) this.errors = extra.errors;
    if (extra.otherErrors) this.otherErrors = extra.otherErrors;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { errName: this.errName, name: this.errName, message: this.message };
    if (this.errors) body.errors = this.errors;
    if (this.otherErrors) body.otherErrors = this.otherErrors;
    return body;
  }
}

export function validationError(errors: PropertyError[], message?: string): AppError {
  const first = errors[0];
  const summary =
    message ??
    (first
      ? `${first.property}: ${Object.values(first.constraints)[0] ?? 'is invalid'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
      : defaultMessage('DataValidationError'));
  return new AppError('DataValidationError', summary, { errors });
}

export function isErrorName(value: unknown): value is ErrorName {
  return typeof value === 'string' && (ERROR_NAMES as readonly string[]).includes(value);
}
