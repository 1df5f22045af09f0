import { describe, expect, expectTypeOf, it } from 'vitest';
import type { samplesDef } from './defs/samples.def.ts';
import type { departmentsDef } from './defs/departments.def.ts';
import type { RecordOf, StoredQuantity } from './record-type.ts';

describe('Typed records', () => {
  it('are derived from the declaration', () => {
    type Sample = RecordOf<typeof samplesDef>;
    expectTypeOf<Sample['name']>().toEqualTypeOf<string>();
    expectTypeOf<Sample['sampleType']>().toEqualTypeOf<'swab' | 'rinse'>();
    expectTypeOf<Sample['swabArea']>().toEqualTypeOf<StoredQuantity | null>();
    expectTypeOf<Sample['analyticalMethodId']>().toEqualTypeOf<number | null>();
    expectTypeOf<Sample>().toHaveProperty('facilityId');
    type Department = RecordOf<typeof departmentsDef>;
    expectTypeOf<Department>().toHaveProperty('planId');
    expectTypeOf<Department>().not.toHaveProperty('facilityId');
    const department: Department = {
      id: 1,
      planId: 1,
      name: 'QA',
      version: 1,
      createdAt: '2026-11-24T00:00:00.000Z',
      updatedAt: '2026-11-24T00:00:00.000Z',
      archivedAt: null,
      archiveReason: null,
    };
    expect(department.name).toBe('QA');
  });
});
