// `npm run seed:demo`: fills a facility with realistic demo data so that a new user sees a
// working MAC matrix in minutes, and every screen something real (issue 30): sampling
// locations, an approved change, worst-case protocols, studies with runs and results, a
// failure with its investigation, a cleaning assessment and reports. FACILITY_ID picks the
// facility (default: the first one).
import { analyticalMethodsDef, cleaningAgentsDef } from '#core/entities/defs/cleaning.def.ts';
import {
  activesDef,
  equipmentDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { ConfigError, loadConfig, type Config } from '#server/config.ts';
import { createEntity } from '#server/entities/entity-write.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { withinTransaction, type Db } from '#server/db/db.ts';
import { demoData } from './demo-data.ts';
import { DEMO_PEOPLE, demoPeople, type DemoPeople } from './demo-people.ts';
import {
  finishDemoStory,
  tellDemoStory,
  type DemoMasterData,
  type DemoStoryTold,
} from './demo-story.ts';
import { migrateAsOwner } from '#server/db/migrate-owner.ts';
import { openDatabase } from '#server/db/open.ts';
import { seedFirstStart } from '#server/db/seed.ts';
import { buildApp } from '#server/app.ts';

const actor: Actor = {
  userId: null,
  userName: 'demo data',
  ip: null,
  userAgent: null,
  requestId: null,
};

export interface DemoSeedResult {
  counts: Record<string, number>;
  /** The demo people and their one-time passwords (to be changed at first sign-in). */
  people: { name: string; username: string; role: string; password: string }[];
}

async function emptyFacility(db: Db, facilityId: number) {
  const [facility] = await db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities where id = $1',
    [facilityId],
  );
  if (!facility) throw new Error(`No facility ${facilityId}`);
  const [existing] = await db.query<{ n: number }>(
    'select count(*)::int as n from products where facility_id = $1',
    [facilityId],
  );
  return { scope: { planId: facility.plan_id, facilityId }, isEmpty: (existing?.n ?? 0) === 0 };
}

/**
 * The demo plant's master data only (tests and benches that need a realistic matrix): into an
 * empty facility, in one transaction.
 */
export async function seedDemo(db: Db, facilityId: number): Promise<Record<string, number>> {
  const { scope, isEmpty } = await emptyFacility(db, facilityId);
  if (!isEmpty)
    throw new Error(
      `Facility ${facilityId} already has products; demo data goes into an empty facility.`,
    );
  return db.transaction(
    async (tx) => (await fillMasterData(withinTransaction(tx, db.kind), scope)).counts,
  );
}

/**
 * `npm run seed:demo`: the demo plant and its story (issue 30). A facility that already has
 * products is left as it is (null): running the seed twice adds nothing.
 */
export async function seedDemoStory(
  server: { db: Db; config: Config },
  facilityId: number,
): Promise<DemoSeedResult | null> {
  const { db } = server;
  const { scope, isEmpty } = await emptyFacility(db, facilityId);
  if (!isEmpty) return null;
  const filled = await db.transaction((tx) =>
    fillFacility({ db: withinTransaction(tx, db.kind), config: server.config }, scope),
  );
  const finished = await finishDemoStory(server, scope, filled.people, filled.told);
  return {
    counts: { ...filled.counts, ...finished },
    people: DEMO_PEOPLE.map((person) => ({
      name: filled.people[person.key].name,
      username: filled.people[person.key].username,
      role: person.role,
      password: filled.people[person.key].password,
    })),
  };
}

/** The master data of the demo plant, in the caller's transaction, with what the story needs. */
async function fillMasterData(
  db: Db,
  scope: { planId: number; facilityId: number },
): Promise<{ counts: Record<string, number>; master: DemoMasterData }> {
  const data = demoData();
  const ids = new Map<string, number>();
  const create = async (def: EntityDef, values: Record<string, unknown>) => {
    const record = await db.transaction((tx) => createEntity(tx, { actor, def, scope, values }));
    ids.set(`${def.key}:${values.name as string}`, record.id);
    return record.id;
  };
  for (const active of data.actives) await create(activesDef, active);
  const activePde = new Map(
    data.actives.map((a) => [a.name as string, (a.pde as { value: number } | undefined)?.value]),
  );
  const productPde = new Map<number, number>();
  const productName = new Map<number, string>();
  for (const { activeNames, ...product } of data.products) {
    const id = await create(productsDef, {
      ...product,
      actives: activeNames.map((name) => ({
        activeId: ids.get(`actives:${name}`),
        amount: product.strength,
      })),
    });
    const pdes = activeNames.map((name) => activePde.get(name) ?? Infinity);
    productPde.set(id, Math.min(...pdes));
    productName.set(id, product.name as string);
  }
  const equipment: DemoMasterData['equipment'] = [];
  for (const item of data.equipment) {
    const id = await create(equipmentDef, item);
    equipment.push({ id, name: item.name as string, material: item.material as string });
  }
  const productions: DemoMasterData['productions'] = [];
  for (const production of data.productions) {
    const equipmentIds = production.equipmentNames.map((n) => ids.get(`equipment:${n}`)!);
    const productIds = production.productNames.map((n) => ids.get(`products:${n}`)!);
    const id = await create(productionsDef, { name: production.name, equipmentIds, productIds });
    productions.push({ id, name: production.name, equipmentIds, productIds });
  }
  for (const agent of data.cleaningAgents) await create(cleaningAgentsDef, agent);
  for (const method of data.analyticalMethods) await create(analyticalMethodsDef, method);
  return {
    counts: {
      actives: data.actives.length,
      products: data.products.length,
      equipment: data.equipment.length,
      productions: data.productions.length,
      cleaningAgents: data.cleaningAgents.length,
      analyticalMethods: data.analyticalMethods.length,
    },
    master: {
      equipment,
      productions,
      productPde,
      productName,
    },
  };
}

/**
 * The master data and the story in the caller's transaction: a failure leaves the facility as
 * it was (and the next run tries again).
 */
async function fillFacility(
  server: { db: Db; config: Config },
  scope: { planId: number; facilityId: number },
): Promise<{ counts: Record<string, number>; people: DemoPeople; told: DemoStoryTold }> {
  const { counts, master } = await fillMasterData(server.db, scope);
  const people = await demoPeople(server.db, actor, scope);
  const story = await tellDemoStory(server, scope, people, master);
  const analyticalMethods = counts.analyticalMethods! + story.counts.analyticalMethods!;
  return {
    counts: { ...counts, ...story.counts, analyticalMethods },
    people,
    told: story.told,
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
    // The app as the server builds it, never started: building it registers what its routes
    // declare (the controlled document types and their approvals) that the story's writes and
    // signatures go through.
    const app = await buildApp({ config, db, logger: false });
    const result = await seedDemoStory({ db, config }, first.id).finally(() => app.close());
    if (!result) {
      console.log(`Facility ${first.id} (${first.name}) already has data: nothing added.`);
      return;
    }
    console.log(
      `Demo data added to facility ${first.id} (${first.name}): ${Object.entries(result.counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}.`,
    );
    console.log('Its reports are queued: the server generates them when it runs (npm start).');
    // Shown once, like the first administrator's: each is changed at the first sign-in.
    console.log('Demo people (one-time passwords, to be changed at first sign-in):');
    for (const person of result.people)
      console.log(`  ${person.name} (${person.role}): ${person.username} / ${person.password}`);
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
