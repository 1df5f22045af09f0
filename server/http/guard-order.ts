import type { FastifyInstance, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { Guard } from './app-context.ts';

function listOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Routes declare their guard as `preHandler`, which Fastify runs after the body is validated: a
 * caller without a session would learn the request's shape from a 422 before being refused.
 * This moves every route's guard ahead of validation: the session is resolved when the request
 * arrives (401 whatever the body, even malformed JSON), the permission is checked just before the
 * schema (403 whatever the body). Must be added before the routes are registered.
 */
export function runGuardsBeforeValidation(app: FastifyInstance, requireSession: Guard): void {
  app.addHook('onRoute', (route) => {
    const guards = listOf(route.preHandler);
    if (guards.length === 0) return;
    route.onRequest = [
      ...listOf(route.onRequest),
      requireSession as unknown as onRequestHookHandler,
    ];
    route.preValidation = [
      ...listOf(route.preValidation),
      ...(guards as unknown as preValidationHookHandler[]),
    ];
    route.preHandler = undefined;
  });
}
