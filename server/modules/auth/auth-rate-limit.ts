import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import { rateLimitHook } from '#server/http/rate-limit.ts';

/** The stricter limit of the sign-in and password calls (OWASP ASVS V2.4), per call and address. */
export function authRateLimit(db: Db, config: Config) {
  return rateLimitHook(db, {
    scope: 'auth',
    max: config.AUTH_RATE_LIMIT_MAX,
    windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    keyOf: (request) => `${request.routeOptions.url ?? request.url}:${request.ip}`,
  });
}
