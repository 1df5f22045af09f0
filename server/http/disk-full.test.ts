import { writeFile } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDiskFull } from '../util/disk-full.ts';
import { registerErrorHandling } from './error-handler.ts';

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = Fastify({ logger: false });
  registerErrorHandling(app, { spaFallback: false });
  // /dev/full answers every write with ENOSPC, as a full volume does.
  app.post('/save', async () => {
    await writeFile('/dev/full', 'a record');
    return { saved: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app?.close();
});

describe('a full disk', () => {
  it('is answered 503 saying so, not as an unexpected error', async () => {
    const res = await fetch(`${url}/save`, { method: 'POST' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      errName: 'ServiceUnavailable',
      name: 'ServiceUnavailable',
      message: 'The server’s disk is full: nothing was saved. Please tell your administrator.',
    });
  });

  it('is recognised in the database’s own words', () => {
    expect(isDiskFull({ code: '53100', message: 'disk full' })).toBe(true);
    // PGlite's words on a full volume (measured on a full tmpfs).
    expect(
      isDiskFull({ message: 'could not extend file "base/5/18157": No space left on device' }),
    ).toBe(true);
    expect(isDiskFull({ code: 'EDQUOT', message: 'quota' })).toBe(true);
    expect(isDiskFull({ code: '23505', message: 'duplicate key' })).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });
});
