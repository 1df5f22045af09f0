import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per answered API call, in place of Fastify's two (received and completed). Static
 * files of the client and health probes are logged at debug only: a page load fetches dozens of
 * them and a load balancer probes every few seconds, which buried the calls worth reading.
 * The query string is left out, as it may carry search terms typed by users. Errors are still
 * logged in full by the error handler.
 */
/** Health probes: what monitors and load balancers call every few seconds. */
export const PROBE_PATHS: ReadonlySet<string> = new Set([
  '/api/v2/health',
  '/api/v2/health/live',
  '/api/v2/health/ready',
]);

export class RequestLog extends LogController {
  // Only at debug: it doubles the lines, but tells what was in flight when something hung.
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  // The completed line already says 404.
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const path = request.url.split('?')[0] ?? request.url;
    const line = `${request.method} ${path} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else if (path.startsWith('/api/') && !PROBE_PATHS.has(path)) reply.log.info(line);
    else reply.log.debug(line);
  }
}
