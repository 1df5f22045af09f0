import type { FastifyInstance } from 'fastify';

/**
 * One line per answered API call, in place of Fastify's two (received and completed). Static
 * files of the client and health probes are logged at debug only: a page load fetches dozens of
 * them and a load balancer probes every few seconds, which buried the calls worth reading.
 * The query string is left out, as it may carry search terms typed by users.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const line = `${request.method} ${path} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (path.startsWith('/api/') && path !== '/api/v2/health') request.log.info(line);
    else request.log.debug(line);
  });
}
