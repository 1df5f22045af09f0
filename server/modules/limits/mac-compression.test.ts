import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { BROTLI_AT_ONCE_WINDOW_BITS, COMPRESS_AT_ONCE_MAX } from '#server/http/compression.ts';

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A request that leaves the answer's bytes as sent: fetch would inflate them unasked. */
function raw(path: string, acceptEncoding?: string): Promise<RawAnswer> {
  const address = t.server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: address.port,
        path,
        headers: {
          token: t.token,
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const inflate = (answer: RawAnswer): string => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.bytes).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(answer.bytes).toString('utf8');
  return answer.bytes.toString('utf8');
};

describe('compressed answers', () => {
  it('sends a pairs page gzip or brotli when asked, and identity when not', async () => {
    const path = `${facility.F}/mac-matrix/pairs?pageLimit=50`;
    const plain = await raw(path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = JSON.parse(plain.bytes.toString('utf8'));
    expect(expected.total).toBe(4);

    const gzip = await raw(path, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.bytes.length).toBeLessThan(plain.bytes.length);
    expect(JSON.parse(inflate(gzip))).toEqual(expected);

    const br = await raw(path, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(inflate(br))).toEqual(expected);

    expect((await raw(path, 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('streams the whole MAC matrix compressed when asked, and identity when not', async () => {
    const path = `${facility.F}/mac-matrix`;
    const plain = await raw(path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = JSON.parse(plain.bytes.toString('utf8'));
    expect(expected.pairs).toHaveLength(4);
    for (const encoding of ['gzip', 'br']) {
      const answer = await raw(path, encoding);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toContain('accept-encoding');
      expect(answer.bytes.length).toBeLessThan(plain.bytes.length);
      expect(JSON.parse(inflate(answer))).toEqual(expected);
    }
    // q=0 refuses an encoding.
    expect((await raw(path, 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('sends the MAC matrix in columns gzipped as kept, and inflated to a client without gzip', async () => {
    const path = `${facility.F}/mac-matrix?format=columns`;
    const plain = await raw(path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const expected = JSON.parse(plain.bytes.toString('utf8'));
    expect(expected).toMatchObject({ format: 'columns', count: 4 });
    for (const accept of ['gzip', 'gzip, deflate, br']) {
      const answer = await raw(path, accept);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toContain('accept-encoding');
      expect(JSON.parse(inflate(answer))).toEqual(expected);
    }
    expect((await raw(path, 'gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('leaves small answers and files as they are', async () => {
    const small = await raw(`${facility.F}/mac-matrix/pairs?pageLimit=1`, 'gzip');
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();

    const xlsx = await raw(`${facility.F}/mac-matrix/export`, 'gzip, br');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    const pdf = await raw(`${facility.F}/macMatrix/production/${facility.line1}`, 'gzip, br');
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('small JSON answers compressed at once', () => {
  it('answers a list page the same JSON whatever the encoding, encoded once (vary set)', async () => {
    const path = `${facility.F}/products?pageLimit=100`;
    const plain = await raw(path);
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(plain.bytes.length).toBeLessThan(64 * 1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['gzip', 'br']) {
      const packed = await raw(path, encoding);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/accept-encoding/i);
      expect(packed.bytes.length).toBeLessThan(plain.bytes.length);
      expect(JSON.parse(inflate(packed))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    }
  });

  it('compresses with a window that holds the whole answer: no larger than with the default one', async () => {
    // The window's bits hold the largest answer compressed at once.
    expect(2 ** BROTLI_AT_ONCE_WINDOW_BITS - 16).toBeGreaterThanOrEqual(COMPRESS_AT_ONCE_MAX);
    const path = `${facility.F}/products?pageLimit=100`;
    const plain = await raw(path);
    const packed = await raw(path, 'br');
    expect(packed.headers['content-encoding']).toBe('br');
    const defaultWindow = brotliCompressSync(plain.bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    });
    // The same compressed data; only the stream's header differs: it spells a window of 2^17
    // in 7 bits and the default 2^22 in 4, so the answer may be one byte longer (327 against
    // 326 on the PostgreSQL pass), never more.
    expect(brotliDecompressSync(packed.bytes)).toEqual(plain.bytes);
    expect(packed.bytes.length).toBeLessThanOrEqual(defaultWindow.length + 1);
  });
});
