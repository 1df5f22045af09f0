import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Guard } from './app-context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Declares a route open to anyone: it has no guard on purpose (sign-in, health, files). */
    public?: boolean;
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  by: 'guard' | 'public';
}

const guards = new WeakSet<Guard>();
const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>();
const publicScopes = new WeakSet<FastifyInstance>();

/** Marks a function as a guard of the guard factory (session-guard.ts): only these count. */
export function asGuard<T extends Guard>(guard: T): T {
  guards.add(guard);
  return guard;
}

/**
 * Declares every route of a scope public: for plugins that register routes of their own, whose
 * options we cannot give a config (static files).
 */
export function declarePublicScope(scope: FastifyInstance): void {
  publicScopes.add(scope);
}

function listOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

export function isGuarded(route: RouteOptions): boolean {
  return listOf(route.preHandler).some((hook) => guards.has(hook as unknown as Guard));
}

export function isDeclaredPublic(route: RouteOptions, scope: FastifyInstance): boolean {
  return route.config?.public === true || publicScopes.has(scope);
}

/**
 * Every route either runs a guard of the guard factory or is declared public: one forgotten
 * guard would open GMP records to anyone (21 CFR 11.10(d), EU GMP Annex 11 §12: access limited
 * to authorised people). A route with neither stops the app at registration, before it serves.
 * Must be added before any route, and before runGuardsBeforeValidation, which moves the guards.
 */
export function requireDeclaredGuards(app: FastifyInstance): void {
  const routes: DeclaredRoute[] = [];
  declared.set(app, routes);
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const method = [route.method].flat().join(',');
    const by = isGuarded(route) ? 'guard' : isDeclaredPublic(route, this) ? 'public' : undefined;
    if (by) {
      routes.push({ method, url: route.url, by });
      return;
    }
    throw new Error(
      `Route ${method} ${route.url} declares no guard: give it a permission guard of the app context ` +
        `(preHandler: permit(...), permitPlan(...), requireSession...) or declare it open with ` +
        `config: { public: true }`,
    );
  });
}

/** The routes of an app and how each declared its access, as registered. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declared.get(app) ?? [];
}
