import type { Config } from '../../config.ts';

/** The stricter limit of the sign-in and password calls (OWASP ASVS V2.4). */
export function authRateLimit(config: Config) {
  return {
    rateLimit: {
      max: config.AUTH_RATE_LIMIT_MAX,
      timeWindow: config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
  };
}
