import { isIP } from 'node:net';
import { z } from 'zod';

const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A host name, or *.domain for every name under the domain. */
const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const postgresUrl = optionalText.pipe(
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
);

/** Every variable is documented in .env.example. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: postgresUrl,
    DATABASE_OWNER_URL: postgresUrl,
    DATA_DIR: z.string().min(1).default('./data'),
    // The embedded folder's lock is taken over once its holder's heartbeat is this old.
    DATA_DIR_LOCK_STALE_SECONDS: z.coerce.number().min(2).max(3600).default(30),
    AUDIT_ANCHOR_DIR: optionalText,
    AUDIT_ANCHOR_KEY: optionalText.pipe(
      z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
    ),
    // How often the heads of the chains written to are anchored: a rewrite of audit rows older
    // than this is found by verify (21 CFR 11.10(e), EU GMP Annex 11 §9).
    AUDIT_ANCHOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    // Encrypts secrets kept in the settings (the SSO client secret, the AD bind password);
    // without it, a random key is made once in DATA_DIR/settings-secret.key.
    SETTINGS_SECRET_KEY: optionalText.pipe(
      z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
    ),
    PUBLIC_URL: optionalText.pipe(z.url('must be an absolute URL').optional()),
    ADMIN_EMAIL: optionalText.pipe(z.email('must be an e-mail address').optional()),
    ADMIN_PASSWORD: optionalText,
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().min(3).default('Carryover <no-reply@carryover.local>'),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    SESSION_MAX_HOURS: z.coerce.number().positive().max(720).default(12),
    ACCESS_CACHE_SECONDS: z.coerce.number().positive().max(60).default(2),
    // The browser counts a stream silent for 45 s as dead (client/app/live-updates.ts).
    EVENTS_HEARTBEAT_SECONDS: z.coerce.number().positive().max(30).default(15),
    AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
    API_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
    API_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
    TRUST_PROXY: boolean.default(false),
    SECURE_COOKIES: boolean.default(false),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    SERVE_CLIENT: boolean.default(true),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
    // Prometheus metrics on a listener of their own, off when empty; 0 takes a free port (tests).
    // Not on PORT: they tell who uses which route how often, for the monitoring network only.
    METRICS_PORT: optionalText.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(65535).optional(),
    ),
    METRICS_HOST: optionalText,
    ATTACHMENT_MAX_MB: z.coerce.number().positive().max(1024).default(20),
    // How often a job worker says it is alive, and after how long without a word another
    // instance takes over its running job (server/jobs/README.md): within two minutes by default.
    JOB_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(5),
    JOB_STALE_SECONDS: z.coerce.number().positive().max(3600).default(60),
    // Webhooks (server/modules/webhooks/README.md): how often the delivery worker looks for due
    // deliveries, how long a receiver may take to answer, and the waits before each retry (a
    // delivery is given up after the last one).
    WEBHOOK_POLL_SECONDS: z.coerce.number().min(0.05).max(60).default(1),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(10),
    WEBHOOK_RETRY_SECONDS: z
      .string()
      .default('10,60,300,1800,7200,21600')
      .transform((text, ctx) => {
        const waits = text.split(',').map((part) => Number(part.trim()));
        if (waits.length > 20 || waits.some((w) => !Number.isFinite(w) || w < 0 || w > 86_400)) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be up to 20 waits in seconds (0 to 86400), separated by commas',
          });
          return z.NEVER;
        }
        return waits;
      }),
    // Hosts webhooks may post to (server/modules/webhooks/webhook-targets.ts): names, IP
    // addresses or *.domain, separated by commas. Empty: any host with public addresses only.
    WEBHOOK_ALLOWED_HOSTS: optionalText.transform((text, ctx) => {
      const patterns = (text ?? '')
        .split(',')
        .map((p) =>
          p
            .trim()
            .toLowerCase()
            .replace(/^\[|\]$/g, ''),
        )
        .filter(Boolean);
      const bad = patterns.find((p) => isIP(p) === 0 && !HOST_PATTERN.test(p));
      if (bad) {
        ctx.addIssue({
          code: 'custom',
          message: `"${bad}" is not a host name, an IP address or *.domain`,
        });
        return z.NEVER;
      }
      return patterns.length > 0 ? patterns : undefined;
    }),
    // Days a delivered webhook event stays in the outbox and its log before it is removed.
    WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    // Workbook imports this instance reads at once; more get 429 with Retry-After (each holds
    // its workbook and parsed rows in memory). Empty: 2 on a server, 1 on the embedded database,
    // whose statements run one at a time anyway and whose engine already holds about 500 MiB.
    IMPORT_CONCURRENCY: optionalText.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(64).optional(),
    ),
  })
  .superRefine((c, ctx) => {
    if (c.DATABASE_OWNER_URL && !c.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: 'is required with DATABASE_OWNER_URL (the role the app serves with)',
      });
    }
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (metrics have a listener of their own)',
      });
    }
    if (c.METRICS_HOST && c.METRICS_PORT === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'is required with METRICS_HOST',
      });
    }
    if (c.JOB_STALE_SECONDS < 3 * c.JOB_HEARTBEAT_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_STALE_SECONDS'],
        message:
          'must be at least three JOB_HEARTBEAT_SECONDS (a job is taken over only after missed heartbeats, not a late one)',
      });
    }
    if (c.ADMIN_PASSWORD && !c.ADMIN_EMAIL) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_EMAIL'],
        message: 'is required with ADMIN_PASSWORD',
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

/**
 * The address that links in mails point at: PUBLIC_URL, or else this server's own HOST and PORT.
 * Never the Host header of a request, which the caller chooses (a poisoned reset link).
 */
export function publicUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return result.data;
}
