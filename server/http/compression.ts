import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  constants,
  createBrotliCompress,
  createGzip,
  type Gzip,
  type BrotliCompress,
} from 'node:zlib';

/** Below this a compressed answer saves less than the headers and the CPU cost. */
export const COMPRESS_THRESHOLD = 1024;

// Brotli's default quality (11) takes seconds on a matrix page; 4 is gzip's speed at a smaller size.
const BROTLI_QUALITY = 4;

/**
 * Compresses answers over 1 kB with br or gzip when the client's Accept-Encoding allows it.
 * Types mime-db marks incompressible (xlsx, pdf) go out as they are; routes that write the
 * socket themselves (hijacked streams) choose with `streamEncoding` below.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    // Uploads arrive as they are; nothing here inflates request bodies.
    globalDecompression: false,
  });
}

export type StreamEncoding = 'br' | 'gzip' | null;

/** The encoding a hijacked stream uses for this request: br, then gzip, else none. */
export function streamEncoding(headers: IncomingHttpHeaders): StreamEncoding {
  const accepted = String(headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => (name ?? '').trim().toLowerCase());
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
  const z =
    encoding === 'br'
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
      : createGzip();
  z.pipe(res);
  return z;
}
