// The anchor of bench/request-anchor.bench.ts, run as a process of its own like the app: a bare
// Fastify 5 route that reads one user by primary key through pg and answers it as JSON.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 20),
});
const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/users/:id', async (request) => {
  const { rows } = await pool.query(
    'select id, first_name, last_name, username, email from users where id = $1',
    [Number(request.params.id)],
  );
  return rows[0];
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end());
});
