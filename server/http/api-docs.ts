import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
  RouteOptions,
} from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const PREFIX = '/api/docs';

/** Request headers a cached docs asset is revalidated with. */
const FORWARDED_REQUEST = ['if-none-match', 'if-modified-since'] as const;
/** Response headers of the docs that say what the body is. */
const FORWARDED_RESPONSE = ['content-type', 'etag', 'last-modified', 'location'] as const;

const OPENAPI = {
  info: {
    title: 'Carryover API',
    description:
      'Cleaning validation risk management platform. Send the session token from POST /api/v2/auth/login in the `token` header. Another system calls as a service account, with one of its API tokens in `Authorization: Bearer <token>` (see service accounts).',
    version: '2.0.0',
  },
  components: {
    securitySchemes: {
      token: { type: 'apiKey' as const, in: 'header', name: 'token' },
      apiToken: { type: 'http' as const, scheme: 'bearer' },
    },
  },
  security: [{ token: [] }, { apiToken: [] }] as Record<string, string[]>[],
};

type Compilers = NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/**
 * The OpenAPI document of every route and its UI under /api/docs, built on first request: an
 * app of its own, declared with each route's method, path and schema, documents them with
 * @fastify/swagger (loading it and its UI was a tenth of a start, for a page few ever open).
 */
export function registerApiDocs(app: FastifyInstance, compilers: Compilers): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(PREFIX) && route.method !== 'HEAD') routes.push(route);
  });
  let docs: Promise<FastifyInstance> | undefined;
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!docs) {
      docs = buildDocs(routes, compilers);
      docs.catch(() => {
        docs = undefined; // the next request tries again
      });
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_REQUEST) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const res = await (await docs).inject({ method: 'GET', url: request.url, headers });
    if (res.statusCode === 404) return reply.callNotFound();
    for (const name of FORWARDED_RESPONSE) {
      const value = res.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.code(res.statusCode).send(res.rawPayload.length > 0 ? res.rawPayload : undefined);
  };
  // The document describes the API, not its data: anyone may read it.
  const hidden = { schema: { hide: true }, config: { public: true } };
  app.get(PREFIX, hidden, answer);
  app.get(`${PREFIX}/*`, hidden, answer);
}

async function buildDocs(routes: RouteOptions[], compilers: Compilers): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  // Only ever asked with GET, through inject: no HEAD twin for each route (as in app.ts).
  const docs = Fastify({
    logger: false,
    exposeHeadRoutes: false,
    schemaController: { compilersFactory: compilers },
  });
  await docs.register(swagger, { openapi: OPENAPI, transform: jsonSchemaTransform });
  await docs.register(swaggerUi, { routePrefix: PREFIX });
  const unused = async () => undefined;
  for (const { method, url, schema, config } of routes)
    docs.route({ method, url, schema, config, handler: unused });
  await docs.ready();
  return docs;
}
