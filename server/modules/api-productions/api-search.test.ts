import { describe, expect, it } from 'vitest';
import {
  apiProcessStepsDef,
  apiProductionsDef,
  apiStepSubstancesDef,
} from '#core/entities/defs/index.ts';
import { columnOf } from '#core/entities/field.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildActive, buildEquipment, recordFactory } from '#server/test/factories/entities.ts';
import { facilityAt } from '#server/test/test-server.ts';
import { trigramIndexes } from '#server/test/trigram-indexes.ts';

/*
 * The API productions' lists search their declared fields from trigram indexes, as the other
 * searched lists do (issue 32; issue 34 for why): an index on each searched column, with no
 * pending list, and a search by a fragment inside a word finds the record.
 */

const t = useFacilityTestServer();
const DEFS = [apiProductionsDef, apiProcessStepsDef, apiStepSubstancesDef];

describe('API productions: searched from trigram indexes', () => {
  it('has a trigram index without a pending list on every searched column of the three tables', async () => {
    const indexes = await trigramIndexes(t.server.db);
    const searched = DEFS.flatMap((def) =>
      def.search.map((name) => {
        const field = def.fields.find((f) => f.name === name)!;
        return `${def.table}_search_${columnOf(field)}`;
      }),
    );
    expect(searched).toEqual([
      'api_productions_search_name',
      'api_process_steps_search_name',
      'api_step_substances_search_note',
    ]);
    for (const name of searched) {
      const index = indexes.find((i) => i.name === name);
      expect(index?.options, name).toContain('fastupdate=off');
    }
  });

  it('finds each list’s record by a fragment inside its searched text', async () => {
    const { F, scope } = await facilityAt(t.server, 1);
    const record = recordFactory(t.server.db, scope);
    const active = (await buildActive(t.server.db, scope, { name: 'Sitagliptin' })).id;
    const mill = (await buildEquipment(t.server.db, scope, { name: 'M-301 mill' })).id;
    const production = await record('api-productions', {
      name: 'Sitagliptin phosphate route',
      activeId: active,
    });
    const step = await record('api-equipment', {
      apiProductionId: production,
      stepNumber: 1,
      name: 'Jet milling',
      equipmentIds: [mill],
    });
    const substance = await record('api-products', {
      apiProductionId: production,
      stepId: step,
      activeId: active,
      note: 'Fine powder in the cyclone',
    });
    const found = async (path: string, search: string) => {
      const res = await t.call('GET', `${F}/${path}?search=${encodeURIComponent(search)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as TestBody[]).map((r) => r.id);
    };
    expect(await found('api-productions', 'phosph')).toEqual([production]);
    expect(await found('api-equipment', 'et mill')).toEqual([step]);
    expect(await found('api-products', 'cyclo')).toEqual([substance]);
  });
});
