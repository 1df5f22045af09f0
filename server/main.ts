import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, publicUrl, type Config } from './config.ts';
import { backupBeforeMigrating } from './db/backup/pre-migration-backup.ts';
import { serveBackupRequests } from './db/backup/live-backup.ts';
import { DatabaseInUseError } from './db/data-dir-lock.ts';
import { deferredDb } from './db/deferred-db.ts';
import { NewerSchemaError } from './db/migrate.ts';
import { migrateAsOwner } from './db/migrate-owner.ts';
import { openDatabase } from './db/open.ts';
import { seedFirstStart } from './db/seed.ts';
import { reconcileAtStart } from './modules/verification/runs/run-reconcile.ts';
import { createAnchorStore, scheduleAnchors } from './modules/audit/audit-anchor.ts';
import { warnIfAuditTrailUnprotected } from './modules/audit/audit-protection.ts';
import { bindEarlierSignatures } from './records/signature-binding.ts';
import { bindEarlierApprovals } from './records/approval-binding.ts';
import { terminalLogStream } from './util/terminal-log.ts';

function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
  } else if (error instanceof DatabaseInUseError || error instanceof NewerSchemaError) {
    process.stderr.write(`Carryover cannot start: ${error.message}\n`);
  } else {
    process.stderr.write(
      `Carryover failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
  }
  process.exit(1);
}

async function start(config: Config): Promise<void> {
  // Opening the database (PGlite: most of a start, in its own thread) and migrating it overlap
  // with loading and building the HTTP app, which reads nothing until it is ready to listen.
  const preparing = openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    lockStaleMs: config.DATA_DIR_LOCK_STALE_SECONDS * 1000,
    poolSize: config.DB_POOL_SIZE,
    onPoolError: (error) => process.stderr.write(`database connection lost: ${error.message}\n`),
  }).then(async (db) => {
    const keptBackup = await backupBeforeMigrating(db, config);
    await migrateAsOwner(db, config);
    return { db, keptBackup, seed: await seedFirstStart(db, config) };
  });
  preparing.catch(() => undefined); // awaited below; this only keeps Node from calling it unhandled
  const deferred = deferredDb(
    config.DATABASE_URL ? 'postgres' : 'pglite',
    preparing.then(({ db }) => db),
  );
  const { buildApp } = await import('./app.ts');
  // JSON lines for a log collector; readable lines for a person watching `npm start`.
  const logger = process.stdout.isTTY
    ? { level: config.LOG_LEVEL, stream: terminalLogStream() }
    : undefined;
  const app = await buildApp({ config, db: deferred, logger });
  const { db, keptBackup, seed } = await preparing;
  if (keptBackup)
    app.log.info({ backup: keptBackup }, 'backed up the database before migrating it');
  await warnIfAuditTrailUnprotected(db, (message) => app.log.warn(message));
  await reconcileAtStart(db, (details, message) => app.log.warn(details, message));
  const bound = await bindEarlierSignatures(db, config, (message) => app.log.warn(message));
  if (bound > 0)
    app.log.info(`${bound} signature(s) made before MACs existed bound into the audit trail`);
  const approvals = await bindEarlierApprovals(db, config, (message) => app.log.warn(message));
  if (approvals > 0)
    app.log.info(`${approvals} approval(s) by another record made before MACs bound`);
  const stopAnchors = scheduleAnchors(
    db,
    createAnchorStore(config, (message) => app.log.warn(message)),
    config.AUDIT_ANCHOR_INTERVAL_SECONDS,
    (err) => app.log.error({ err }, 'writing the audit chain anchors failed'),
  );
  // `npm run backup` beside a running embedded server asks it (live-backup.ts).
  const stopBackups =
    db.kind === 'pglite'
      ? serveBackupRequests(db, config, {
          info: (message) => app.log.info(message),
          error: (err, message) => app.log.error({ err }, message),
        })
      : () => undefined;
  if (!config.PUBLIC_URL) {
    app.log.warn(
      { links: publicUrl(config) },
      'PUBLIC_URL is not set: links in mails point at this server’s own HOST and PORT',
    );
  }

  if (seed.seeded) {
    app.log.info(
      { adminEmail: seed.adminEmail },
      'first start: seeded a plan, two facilities and an administrator',
    );
    if (seed.oneTimePassword) {
      // Printed once, on the console only; the administrator must change it at first sign-in.
      process.stdout.write(
        `\n  Administrator: ${seed.adminEmail}\n  One-time password: ${seed.oneTimePassword}\n  (You will be asked to change it at first sign-in.)\n\n`,
      );
    }
  }

  closeWithGrace({ delay: config.SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down; in-flight requests finish first');
    stopAnchors();
    stopBackups();
    await app.close();
    await db.close();
  });

  await app.listen({ host: config.HOST, port: config.PORT });
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail(error);
}
start(config).catch(fail);
