import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../util/project-root.ts';

export function clientDir(): string {
  return join(projectRoot(), 'dist/client');
}

/** Serves the built client when there is one; every non-API page path answers with index.html. */
export async function registerClientFiles(app: FastifyInstance): Promise<boolean> {
  const root = clientDir();
  if (!existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // Hashed asset names never change content, so browsers may keep them.
    setHeaders: (res, path) => {
      if (path.includes('/assets/'))
        res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  // Browsers and tools that ignore the page's icon link still ask for /favicon.ico.
  app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
    reply.type('image/svg+xml').sendFile('favicon.svg'),
  );
  return true;
}
