import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzipSync,
  type Gzip,
  type BrotliCompress,
} from 'node:zlib';

/** Below this a compressed answer saves less than the headers and the CPU cost. */
export const COMPRESS_THRESHOLD = 1024;

// Brotli's default quality (11) takes seconds on a matrix page; 4 is gzip's speed at a smaller size.
const BROTLI_QUALITY = 4;

/**
 * Up to this size a JSON answer is compressed at once, in the request's own turn: streaming it
 * through the plugin's compressor cost a 10-row list page more Node CPU than reading it from the
 * database (issue 34: zlib's stream and its several socket writes were a third of the request).
 */
export const COMPRESS_AT_ONCE_MAX = 64 * 1024;

const brotliStreamed = { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } };

/**
 * An answer compressed at once fits a window of 2^17 bytes whole, so brotli writes the same
 * bytes as with its default 4 MB window, at about half the CPU (issue 34: 0.92 ms down to
 * 0.49 ms for a run's 28 kB answer, 1,313 bytes either way): it sizes its tables by the window.
 */
export const BROTLI_AT_ONCE_WINDOW_BITS = 17;
const brotliAtOnce = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_LGWIN]: BROTLI_AT_ONCE_WINDOW_BITS,
  },
};

/**
 * Compresses answers over 1 kB with br or gzip when the client's Accept-Encoding allows it.
 * Types mime-db marks incompressible (xlsx, pdf) go out as they are; routes that write the
 * socket themselves (hijacked streams) choose with `streamEncoding` below.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: brotliStreamed,
    // Uploads arrive as they are; nothing here inflates request bodies.
    globalDecompression: false,
  });
  // Before the plugin's own hook (app hooks run before route hooks): an answer encoded here
  // carries its Content-Encoding, and the plugin leaves it as it is.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || reply.getHeader('content-encoding')) return payload;
    if (request.headers['x-no-compression'] !== undefined) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return payload;
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_THRESHOLD || size > COMPRESS_AT_ONCE_MAX) return payload;
    const encoding = streamEncoding(request.headers);
    if (!encoding) return payload;
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary)))
      reply.header('vary', `${String(vary)}, accept-encoding`);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return encoding === 'br' ? brotliCompressSync(payload, brotliAtOnce) : gzipSync(payload);
  });
}

export type StreamEncoding = 'br' | 'gzip' | null;

/** The encodings a request's Accept-Encoding allows (q=0 refuses one). */
function acceptedEncodings(headers: IncomingHttpHeaders): string[] {
  return String(headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => (name ?? '').trim().toLowerCase());
}

/** Whether the request takes gzip: an answer kept gzipped (mac-columns.ts) goes out as it is. */
export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  return acceptedEncodings(headers).includes('gzip');
}

/** The encoding a hijacked stream uses for this request: br, then gzip, else none. */
export function streamEncoding(headers: IncomingHttpHeaders): StreamEncoding {
  const accepted = acceptedEncodings(headers);
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/** A compressor piped into `res`, or null when the answer goes out as it is. */
export function compressorFor(
  encoding: StreamEncoding,
  res: ServerResponse,
): Gzip | BrotliCompress | null {
  if (!encoding) return null;
  const z = encoding === 'br' ? createBrotliCompress(brotliStreamed) : createGzip();
  z.pipe(res);
  return z;
}
