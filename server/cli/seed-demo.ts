// `npm run seed:demo`: fills a facility with realistic demo data so that a new user sees a
// working MAC matrix in minutes. FACILITY_ID picks the facility (default: the first one).
import { analyticalMethodsDef, cleaningAgentsDef } from '#core/entities/defs/cleaning.def.ts';
import {
  activesDef,
  equipmentDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { createEntity } from '#server/entities/entity-write.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { withinTransaction, type Db } from '#server/db/db.ts';
import { demoData } from './demo-data.ts';
import { migrateAsOwner } from '#server/db/migrate-owner.ts';
import { openDatabase } from '#server/db/open.ts';
import { seedFirstStart } from '#server/db/seed.ts';

const actor: Actor = {
  userId: null,
  userName: 'demo data',
  ip: null,
  userAgent: null,
  requestId: null,
};

export async function seedDemo(db: Db, facilityId: number): Promise<Record<string, number>> {
  const [facility] = await db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities where id = $1',
    [facilityId],
  );
  if (!facility) throw new Error(`No facility ${facilityId}`);
  const [existing] = await db.query<{ n: number }>(
    'select count(*)::int as n from products where facility_id = $1',
    [facilityId],
  );
  if ((existing?.n ?? 0) > 0)
    throw new Error(
      `Facility ${facilityId} already has products; demo data goes into an empty facility.`,
    );
  return db.transaction((tx) =>
    fillFacility(withinTransaction(tx, db.kind), { planId: facility.plan_id, facilityId }),
  );
}

/** All of it in the caller's transaction: a failure leaves the facility as it was. */
async function fillFacility(
  db: Db,
  scope: { planId: number; facilityId: number },
): Promise<Record<string, number>> {
  const data = demoData();
  const ids = new Map<string, number>();
  const create = async (def: EntityDef, values: Record<string, unknown>) => {
    const record = await db.transaction((tx) => createEntity(tx, { actor, def, scope, values }));
    ids.set(`${def.key}:${values.name as string}`, record.id);
  };
  for (const active of data.actives) await create(activesDef, active);
  for (const { activeNames, ...product } of data.products) {
    await create(productsDef, {
      ...product,
      actives: activeNames.map((name) => ({
        activeId: ids.get(`actives:${name}`),
        amount: product.strength,
      })),
    });
  }
  for (const item of data.equipment) await create(equipmentDef, item);
  for (const production of data.productions) {
    await create(productionsDef, {
      name: production.name,
      equipmentIds: production.equipmentNames.map((n) => ids.get(`equipment:${n}`)),
      productIds: production.productNames.map((n) => ids.get(`products:${n}`)),
    });
  }
  for (const agent of data.cleaningAgents) await create(cleaningAgentsDef, agent);
  for (const method of data.analyticalMethods) await create(analyticalMethodsDef, method);
  return {
    actives: data.actives.length,
    products: data.products.length,
    equipment: data.equipment.length,
    productions: data.productions.length,
    cleaningAgents: data.cleaningAgents.length,
    analyticalMethods: data.analyticalMethods.length,
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    lockStaleMs: config.DATA_DIR_LOCK_STALE_SECONDS * 1000,
  });
  try {
    await migrateAsOwner(db, config);
    await seedFirstStart(db, config);
    const [first] = await db.query<{ id: number; name: string }>(
      `select id, name from facilities where ($1::int is null or id = $1) order by id limit 1`,
      [process.env.FACILITY_ID ? Number(process.env.FACILITY_ID) : null],
    );
    if (!first) throw new Error('No such facility');
    const counts = await seedDemo(db, first.id);
    console.log(
      `Demo data added to facility ${first.id} (${first.name}): ${Object.entries(counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}.`,
    );
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
