import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { selectionCriteriaDef } from '#core/entities/defs/index.ts';
import { productTypesDef } from '#core/entities/defs/product-types.def.ts';
import { samplingPolicyDef } from '#core/entities/defs/sampling-policy.def.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { AppContext } from '#server/http/app-context.ts';
import { registerEntityRoutes } from './entity.routes.ts';

const allow = async () => undefined;

/** The routes a declaration gets, by method and path (no database is touched to list them). */
async function routesOf(def: EntityDef) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const context = { app, permit: () => allow, permitPlan: () => allow } as unknown as AppContext;
  registerEntityRoutes(context, def);
  await app.ready();
  const base = '/api/v2/plans/:plan/facilities/:facility/';
  const has = (method: string, url: string) =>
    app.hasRoute({ method: method as 'GET', url: `${base}${def.path}${url}` });
  const routes = {
    editByPost: has('POST', '/:id'),
    editByPut: has('PUT', '/:id'),
    archiveByPut: has('PUT', '/:id/archive'),
    archiveByDelete: has('DELETE', '/:id'),
  };
  await app.close();
  return routes;
}

describe('The declared verbs', () => {
  it('give each declaration the edit and archive calls it names, and only those', async () => {
    expect(await routesOf(productTypesDef)).toEqual({
      editByPost: true,
      editByPut: false,
      archiveByPut: true,
      archiveByDelete: false,
    });
    expect(await routesOf(samplingPolicyDef)).toEqual({
      editByPost: false,
      editByPut: true,
      archiveByPut: false,
      archiveByDelete: true,
    });
    expect(await routesOf(selectionCriteriaDef)).toMatchObject({
      editByPost: true,
      editByPut: true,
    });
  });

  it('give a declaration that does not allow archiving no archive call', async () => {
    const routes = await routesOf({ ...productTypesDef, archivable: false });
    expect(routes).toMatchObject({ archiveByPut: false, archiveByDelete: false, editByPost: true });
  });
});
