import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A posted body as tests read it; the assertions check its shape. */
export type ReceivedBody = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
type Body = ReceivedBody;

/** What the receiver got: the raw body as sent, and the headers. */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: Body;
  answered: number;
}

/**
 * A receiver on 127.0.0.1 started by the test: it answers each request with the status
 * `answer` gives for it (counted from 1) and keeps what it received.
 */
export async function startReceiver(answer: (n: number, body: Body) => number = () => 204) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Body;
      const status = answer(received.length + 1, body);
      received.push({ headers: request.headers, raw, body, answered: status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The check a receiver makes (README: Webhooks): HMAC-SHA256 of "<t>.<raw body>". */
export function signatureHolds(secret: string, header: string | string[] | undefined, raw: string) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${raw}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}
