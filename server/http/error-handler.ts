import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';
import { AppError, validationError, type PropertyError } from '#core/errors/errors.ts';
import { isConnectionLost, isLeaseLost } from '../db/db.ts';
import { isDiskFull } from '../util/disk-full.ts';

/** '/products/0/minBatchSize' → 'products[0].minBatchSize', the path style of the catalogue. */
export function propertyPath(instancePath: string, prefix = ''): string {
  const parts = instancePath.split('/').filter(Boolean);
  let path = prefix;
  for (const part of parts) {
    path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  }
  return path || '(root)';
}

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params?: unknown;
  message?: string | undefined;
}

/** The catalogue's DataValidationError for schema issues, one entry per property. */
function fromIssues(issues: readonly SchemaIssue[]): AppError {
  const byProperty = new Map<string, PropertyError>();
  const add = (property: string, keyword: string, message: string) => {
    const entry = byProperty.get(property) ?? { property, constraints: {} };
    entry.constraints[keyword || 'invalid'] = message;
    byProperty.set(property, entry);
  };
  for (const issue of issues) {
    const keys = (issue.params as { keys?: unknown } | undefined)?.keys;
    // An unknown field is named by itself, so a form can show the message where it belongs.
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      const base = issue.instancePath.replace(/\/$/, '');
      for (const key of keys)
        add(propertyPath(`${base}/${String(key)}`), 'unknown', 'is not a field of this request');
      continue;
    }
    add(propertyPath(issue.instancePath), issue.keyword, issue.message ?? 'is invalid');
  }
  return validationError([...byProperty.values()]);
}

function fromSchemaValidation(error: FastifyError): AppError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  return fromIssues(error.validation);
}

/**
 * The error a route would answer had `error` come from its body schema: for input checked
 * against a route's schema outside the route (a staged change checked as its direct edit).
 */
export function bodyValidationError(error: ZodError): AppError {
  return fromIssues(
    error.issues.map((issue) => {
      const { path, code, message, ...params } = issue;
      return { keyword: code, instancePath: `/${path.join('/')}`, params, message };
    }),
  );
}

/** Fastify's own refusals of malformed input become DataValidationError too, never a 500. */
function fromFastify(error: FastifyError): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return validationError([{ property: 'body', constraints: { json: error.message } }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return validationError([
        { property: 'content-type', constraints: { mediaType: 'Unsupported media type' } },
      ]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return validationError([
        { property: 'body', constraints: { size: 'The request is too large' } },
      ]);
    case 'FST_ERR_VALIDATION':
      return validationError([{ property: 'request', constraints: { invalid: error.message } }]);
    default:
      break;
  }
  if (error.statusCode === 429) return new AppError('TooManyRequests');
  if (error.statusCode === 503) return new AppError('ServiceUnavailable');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return validationError([{ property: 'request', constraints: { invalid: error.message } }]);
  }
  return undefined;
}

/** Races the service checks could not see coming: the database's own refusals. */
function fromDatabase(error: unknown): AppError | undefined {
  // The connection died under this request (database restart, terminated backend): the request
  // did not commit, the pool replaces the connection, and a retry succeeds.
  if (isConnectionLost(error)) {
    return new AppError(
      'ServiceUnavailable',
      'The connection to the database was lost. Please try again.',
    );
  }
  // Another process took the embedded database's folder over while this one was frozen: the
  // write fence refused the statement, and this process stops (open.ts).
  if (isLeaseLost(error)) {
    return new AppError(
      'ServiceUnavailable',
      'This server no longer holds its database, which another server now runs: nothing was saved.',
    );
  }
  // Nothing of the request was saved, and nothing will be until space is freed: say so rather
  // than answer an unexpected error (GET /api/v2/health/ready says the same to monitors).
  if (isDiskFull(error)) {
    return new AppError(
      'ServiceUnavailable',
      'The server’s disk is full: nothing was saved. Please tell your administrator.',
    );
  }
  switch ((error as { code?: unknown }).code) {
    case '23505':
      return new AppError('DuplicateEntryError', 'An entry with this value already exists.');
    // Data exceptions (class 22): a value the checks let through that the database cannot store,
    // such as an integer beyond its range. The input is at fault, so the caller gets 422.
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22021':
    case '22P02':
    case '22P05':
      return validationError([
        { property: 'request', constraints: { invalid: 'A value is out of range or malformed' } },
      ]);
    case '40001':
    case '40P01':
    case '55P03':
      return new AppError('TransactionLocked');
    default:
      return undefined;
  }
}

/**
 * With `spaFallback`, a page path answers 200 with the client's index.html so that the client's
 * router handles it (a deep link such as /master-data/sop). API paths and the built assets are
 * not pages: a missing one is a 404, not a page the browser would try to run as a script.
 */
function isClientRoute(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return path !== '/api' && !path.startsWith('/api/') && !path.startsWith('/assets/');
}

export function registerErrorHandling(
  app: FastifyInstance,
  /** `spaFallback`: the folder of the built client whose index.html page paths answer with. */
  options: { spaFallback: string | false },
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError =
      error instanceof AppError
        ? error
        : (fromSchemaValidation(error) ??
          fromDatabase(error) ??
          fromFastify(error) ??
          new AppError('InternalServerError'));
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ errName: appError.errName }, appError.message);
    }
    if (error.statusCode === 429 && reply.getHeader('retry-after') === undefined) {
      reply.header('retry-after', '60');
    }
    if (appError.status === 503 && reply.getHeader('retry-after') === undefined) {
      reply.header('retry-after', '1');
    }
    return reply.status(appError.status).send(appError.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (options.spaFallback && isClientRoute(request.method, path)) {
      return reply.code(200).type('text/html').sendFile('index.html', options.spaFallback);
    }
    const error = new AppError('NotFoundError', `No route for ${request.method} ${path}`);
    return reply.status(404).send(error.toBody());
  });
}
