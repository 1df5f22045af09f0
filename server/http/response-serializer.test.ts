import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { RECORD_DEFS } from '#core/entities/defs/index.ts';
import { recordSchema } from '#core/entities/entity.ts';
import { freezeDeep, isDeeplyFrozen } from '#server/util/immutable.ts';
import { compileResponseWriter } from './response-serializer.ts';

/** What zod's serializer (fastify-type-provider-zod) sends, or undefined when it refuses. */
function byZod(schema: z.ZodType, value: unknown): string | undefined {
  const result = z.safeEncode(schema, value as never);
  return result.success ? JSON.stringify(result.data) : undefined;
}

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown) => (schema as $ZodType)._zod.def as unknown as Def;

/**
 * Values of roughly a schema's shape: right most of the time, with wrong types, extra keys,
 * missing keys and out-of-range numbers now and then, so both answers of zod are met.
 */
function valuesOf(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const wrong = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.double());
  const right = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return fc.string({ maxLength: 8 });
      case 'number':
        return fc.oneof(fc.integer(), fc.double(), fc.constant(1.5));
      case 'boolean':
        return fc.boolean();
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
      case 'literal':
        return fc.constantFrom(...(def.values as unknown[]));
      case 'nullable':
        return fc.oneof(fc.constant(null), valuesOf(def.innerType, depth));
      case 'optional':
        return fc.oneof(fc.constant(undefined), valuesOf(def.innerType, depth));
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(valuesOf(def.element, depth + 1), { maxLength: 3 });
      case 'record':
        return fc.dictionary(fc.string({ maxLength: 4 }), valuesOf(def.valueType, depth + 1), {
          maxKeys: 3,
        });
      case 'union':
        return fc.oneof(...(def.options as unknown[]).map((o) => valuesOf(o, depth)));
      case 'object': {
        const shape = def.shape as Record<string, unknown>;
        return fc
          .tuple(
            fc.record(
              Object.fromEntries(
                Object.entries(shape).map(([k, s]) => [k, valuesOf(s, depth + 1)]),
              ),
            ),
            fc.dictionary(fc.constantFrom('extra', 'other'), fc.string(), { maxKeys: 1 }),
          )
          .map(([known, extra]) => ({ ...extra, ...known }));
      }
      default:
        return fc.anything({ maxDepth: 1 });
    }
  })();
  return fc.oneof({ arbitrary: right, weight: 9 }, { arbitrary: wrong, weight: 1 });
}

/** Same bytes as zod whenever zod answers; refused whenever zod refuses a value's type. */
function expectSameAsZod(schema: z.ZodType, runs = 300) {
  const write = compileResponseWriter(schema as unknown as $ZodType);
  fc.assert(
    fc.property(valuesOf(schema), (value) => {
      const expected = byZod(schema, value);
      const written = write(value);
      if (expected !== undefined) expect(written).toBe(expected);
    }),
    { numRuns: runs },
  );
}

const kinds = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  trimmed: z.string().trim(),
  note: z.string().nullable().optional(),
  grade: z.enum(['A', 'B']).nullable(),
  kind: z.literal('x'),
  flags: z.array(z.boolean()),
  byName: z.record(z.string(), z.number()),
  either: z.union([z.string(), z.number(), z.null()]),
  shape: z.discriminatedUnion('k', [
    z.object({ k: z.literal('a'), a: z.number() }),
    z.object({ k: z.literal('b'), b: z.string() }),
  ]),
  defaulted: z.number().default(3),
  anything: z.unknown(),
  loose: z.looseObject({ a: z.number() }),
  nested: z.array(z.object({ v: z.number(), w: z.string().optional() })),
});

describe('responses written from their schema', () => {
  it('writes what zod writes, key order and dropped keys included', () => {
    const write = compileResponseWriter(kinds as unknown as $ZodType);
    const value = {
      extra: 'dropped',
      nested: [{ w: 'w', v: 2, x: 1 }],
      id: 7,
      name: 'Mixer',
      trimmed: '  padded ',
      note: undefined,
      grade: null,
      kind: 'x',
      flags: [true, false],
      byName: { b: 2, a: 1, 10: 3 },
      either: null,
      shape: { b: 'text', k: 'b', a: 1 },
      defaulted: 4,
      anything: { keep: [1, 'two'] },
      loose: { a: 1, kept: true },
    };
    const expected = byZod(kinds, value);
    expect(expected).toContain('"trimmed":"padded"');
    expect(write(value)).toBe(expected);
  });

  it('refuses what zod refuses for its type, so zod answers with its error', () => {
    const write = compileResponseWriter(
      z.object({ id: z.number().int(), grade: z.enum(['A']) }) as unknown as $ZodType,
    );
    expect(write({ id: 1.5, grade: 'A' })).toBeUndefined();
    expect(write({ id: 1, grade: 'B' })).toBeUndefined();
    expect(write({ id: '1', grade: 'A' })).toBeUndefined();
    expect(write({ grade: 'A' })).toBeUndefined();
    expect(write({ id: 1, grade: 'A' })).toBe('{"id":1,"grade":"A"}');
  });

  it('writes a deeply frozen list once, and any other list each time it is asked', () => {
    const write = compileResponseWriter(
      z.object({
        data: z.array(z.object({ id: z.number(), tags: z.array(z.string()) })),
      }) as unknown as $ZodType,
    );
    const open = [{ id: 1, tags: ['a'] }];
    expect(write({ data: open })).toBe('{"data":[{"id":1,"tags":["a"]}]}');
    open[0]!.tags.push('b');
    open.push({ id: 2, tags: [] });
    expect(write({ data: open })).toBe('{"data":[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]}]}');

    let reads = 0;
    const item = { tags: ['c'] } as { id: number; tags: string[] };
    Object.defineProperty(item, 'id', { enumerable: true, get: () => ++reads && 3 });
    const kept = freezeDeep([item]);
    expect(isDeeplyFrozen(kept)).toBe(true);
    expect(() => kept[0]!.tags.push('d')).toThrow(TypeError);
    const readsBefore = reads;
    expect(write({ data: kept })).toBe('{"data":[{"id":3,"tags":["c"]}]}');
    expect(write({ data: kept })).toBe('{"data":[{"id":3,"tags":["c"]}]}');
    expect(reads).toBe(readsBefore + 1);
    // A frozen list holding what freezing cannot hold still (a Date) is written each time.
    const dated = freezeDeep([{ id: 4, tags: [], at: new Date(0) }]);
    expect(isDeeplyFrozen(dated)).toBe(false);
    expect(Object.isFrozen(dated)).toBe(true);
  });

  it('agrees with zod on generated values of many kinds', () => {
    expectSameAsZod(kinds, 500);
  });

  it.each(RECORD_DEFS.map((def) => [def.key, def] as const))(
    'agrees with zod on records of %s',
    (_key, def) => {
      expectSameAsZod(recordSchema(def), 100);
    },
  );
});
