// The floor of bench/start-time.bench.ts: a bare Fastify app that opens a migrated PGlite data
// folder (the app's own, with the extension and buffers the app opens it with) and answers the
// health path once a query went through. Plain JavaScript run by node with the server's flags and
// a compile cache, as scripts/start.mjs runs the app, so that only what the app adds is compared.
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
module.enableCompileCache(join(root, 'node_modules/.cache/compile-anchor'));

const { default: Fastify } = await import('fastify');
const { PGlite } = await import('@electric-sql/pglite');
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');

const db = await PGlite.create({
  dataDir: process.env.DATA_DIR,
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  extensions: { pg_trgm },
});
await db.query('select 1');
const app = Fastify({ logger: false });
app.get('/api/v2/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => db.close());
});
