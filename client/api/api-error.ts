import { isErrorName } from '#core/errors/errors.ts';
import type { ErrorName, PropertyError } from '#core/errors/errors.ts';

/**
 * How the client classifies a failed call (spec §8 "HTTP handling"): `server` carries the
 * server's own error (400/409/419/422) for the screen to map; the others are the handler's
 * categories.
 */
export type ApiErrorKind =
  | 'server'
  | 'not-allowed'
  | 'resource-not-found'
  | 'server-unreachable'
  | 'server-error'
  | 'uncategorised';

/** The JSON body of a server error, as far as it could be read. */
export interface ServerErrorBody {
  errName?: ErrorName | undefined;
  name?: string | undefined;
  message?: string | undefined;
  errors?: PropertyError[] | undefined;
  otherErrors?: unknown[] | undefined;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  /** The catalogue name, when the server sent one we know. */
  readonly errName: ErrorName | undefined;
  readonly errors: PropertyError[] | undefined;
  readonly otherErrors: unknown[] | undefined;
  /** What the server said, where the message is the catalogue's own text (a refusal's reason). */
  readonly serverMessage: string | undefined;

  constructor(kind: ApiErrorKind, status: number, message: string, body: ServerErrorBody = {}) {
    super(message);
    this.name = body.errName ?? 'ApiError';
    this.kind = kind;
    this.status = status;
    this.errName = body.errName;
    this.errors = body.errors;
    this.otherErrors = body.otherErrors;
    this.serverMessage = body.message;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Reads an error body defensively: proxies and crashes answer with HTML or nothing. */
export function parseErrorBody(text: string): ServerErrorBody {
  if (!text) return {};
  try {
    const raw: unknown = JSON.parse(text);
    if (typeof raw !== 'object' || raw === null) return {};
    const record = raw as Record<string, unknown>;
    const errName = isErrorName(record.errName)
      ? record.errName
      : isErrorName(record.name)
        ? record.name
        : undefined;
    return {
      errName,
      name: typeof record.name === 'string' ? record.name : undefined,
      message: typeof record.message === 'string' ? record.message : undefined,
      errors: Array.isArray(record.errors) ? (record.errors as PropertyError[]) : undefined,
      otherErrors: Array.isArray(record.otherErrors) ? record.otherErrors : undefined,
    };
  } catch {
    return {};
  }
}
