import { request as httpRequest, type ClientRequest } from 'node:http';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

// One import at a time on this server (IMPORT_CONCURRENCY=1), over real HTTP: an upload whose
// body is still arriving holds the slot.
let server: TestServer;
let token: string;
let F: string;
let workbook: Buffer;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  server = await startTestServer({ IMPORT_CONCURRENCY: '1' });
  token = await server.login();
  const [facility] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  F = `/api/v2/plans/${facility!.plan_id}/facilities/${facility!.id}`;
  const wb = new ExcelJS.Workbook();
  const actives = wb.addWorksheet('Actives');
  actives.addRow(['Name', 'PDE/ADE', 'PDE/ADE unit']);
  actives.addRow(['Slot active', 0.5, 'mg']);
  workbook = Buffer.from(await wb.xlsx.writeBuffer());
});
afterAll(async () => {
  await server?.close();
});

interface HeldUpload {
  req: ClientRequest;
  finish(): Promise<number>;
}

/** A POST without a session: refused with 401 after taking a slot, or 429 when none is free. */
const probe = async () =>
  (
    await fetch(`${server.url}${F}/master`, {
      method: 'POST',
      headers: { 'content-type': XLSX },
      body: 'x',
    })
  ).status;

/**
 * An upload that has sent its headers and half its body, and holds the import slot while it
 * waits to send the rest. It is started again when a probe took the slot as it arrived.
 */
async function holdUpload(): Promise<HeldUpload> {
  for (;;) {
    const url = new URL(`${server.url}${F}/master?fileName=slot.xlsx`);
    const req = httpRequest(url, {
      method: 'POST',
      headers: { token, 'content-type': XLSX, 'content-length': workbook.length },
    });
    req.on('error', () => undefined); // an abandoned upload ends with a socket error
    let early: number | undefined;
    const answered = once(req, 'response').then(([res]) => {
      res.resume();
      early = res.statusCode as number;
      return early;
    });
    answered.catch(() => undefined); // settled by finish(), or abandoned
    req.flushHeaders();
    req.write(workbook.subarray(0, workbook.length >> 1));
    while (early === undefined && (await probe()) !== 429) {
      // the upload's headers are still on their way
    }
    if (early === undefined)
      return {
        req,
        async finish() {
          req.end(workbook.subarray(workbook.length >> 1));
          return answered;
        },
      };
    req.destroy();
  }
}

const upload = () =>
  fetch(`${server.url}${F}/master?fileName=other.xlsx`, {
    method: 'POST',
    headers: { token, 'content-type': XLSX },
    body: new Uint8Array(workbook),
  });

describe('workbook imports at once', () => {
  it('refuses another import with 429 and Retry-After while the slot is taken, then takes it', async () => {
    const first = await holdUpload();
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      errName: 'TooManyRequests',
      name: 'TooManyRequests',
      message: 'This server is already importing 1 workbook. Try again in 5 seconds.',
    });

    expect(await first.finish()).toBe(200);
    const next = await upload();
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ rows: 1, unchanged: 1 });
  });

  it('an upload abandoned before it was read frees its slot', async () => {
    const abandoned = await holdUpload();
    abandoned.req.destroy();
    // The server learns of it when the socket closes: until then a probe may still be refused.
    while ((await probe()) === 429) {
      // not yet
    }
    expect((await upload()).status).toBe(200);
  });

  it('a refused caller does not keep the slot', async () => {
    const anonymous = await fetch(`${server.url}${F}/master`, {
      method: 'POST',
      headers: { 'content-type': XLSX },
      body: new Uint8Array(workbook),
    });
    expect(anonymous.status).toBe(401);
    expect((await upload()).status).toBe(200);
  });
});
