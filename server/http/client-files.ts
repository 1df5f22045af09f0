import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../util/project-root.ts';
import { declarePublicScope } from './route-guard.ts';

export function clientDir(): string {
  return join(projectRoot(), 'dist/client');
}

/**
 * Serves the built client from `root` when there is one; every non-API page path answers with
 * index.html (error-handler.ts).
 */
export async function registerClientFiles(
  app: FastifyInstance,
  root = clientDir(),
): Promise<boolean> {
  if (!existsSync(join(root, 'index.html'))) return false;
  // reply.sendFile for every route and the page fallback (error-handler.ts); no route of its own.
  // The page (index.html, sent for every page path) must be asked for again each time, or a
  // browser keeps running the client of the build before an upgrade.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    setHeaders: (res, path) =>
      res.header(
        'cache-control',
        path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      ),
  });
  // The built client holds no data: its files are public. The static plugin's routes take no
  // config, so they live in a scope of their own declared public, beside the icon's.
  await app.register(async (scope) => {
    declarePublicScope(scope);
    // The built assets behind one route rather than a route for each file (hundreds, a tenth of
    // the routes a start sets up); a name that is not there is a 404.
    await scope.register(fastifyStatic, {
      root: join(root, 'assets'),
      prefix: '/assets/',
      index: false,
      decorateReply: false,
      // Hashed asset names never change content, so browsers may keep them.
      setHeaders: (res) => res.header('cache-control', 'public, max-age=31536000, immutable'),
    });
    // Browsers and tools that ignore the page's icon link still ask for /favicon.ico.
    for (const path of ['/favicon.svg', '/favicon.ico'])
      scope.get(path, { schema: { hide: true }, exposeHeadRoute: true }, (_request, reply) =>
        reply.type('image/svg+xml').sendFile('favicon.svg', root),
      );
  });
  return true;
}
