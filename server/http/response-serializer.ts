import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';
import { isDeeplyFrozen } from '#server/util/immutable.ts';

/*
 * Responses written straight from their zod schema (issue 16): zod's own serializer checks and
 * rebuilds every object before JSON.stringify, several times the cost of writing it. This writes
 * the same bytes — the schema's keys in its order, undeclared keys dropped, every value through
 * JSON.stringify, strings trimmed or cased as their schema says — and checks what can change
 * them: each value's type, integers, enum and literal members. Anything else about a value
 * (lengths, ranges, formats, refinements) is left unchecked. A part of a schema that rewrites
 * values otherwise (transforms, defaults, codecs) is encoded by zod; a value that fails a check
 * is answered by zod's serializer as before, with its error.
 */

type Schema = $ZodType;
type Writer = (value: unknown) => string | undefined;

/** Thrown inside a writer when a value is not what the schema says; never escapes `compile`. */
const MISMATCH = Symbol('mismatch');
const fail = (): never => {
  throw MISMATCH;
};

const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32']);

interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; format?: string; tx?: (v: unknown) => unknown } } }[];
  format?: string;
  [key: string]: unknown;
}

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;

/** The checks that change the value (trim, case), in zod's order; the others only check. */
function rewritesOf(def: Def): ((v: unknown) => unknown)[] {
  return (def.checks ?? []).flatMap((c) =>
    c._zod.def.check === 'overwrite' && c._zod.def.tx ? [c._zod.def.tx] : [],
  );
}

function stringWriter(def: Def): Writer {
  const rewrites = rewritesOf(def);
  if (rewrites.length === 0) return (v) => (typeof v === 'string' ? JSON.stringify(v) : fail());
  return (v) => {
    if (typeof v !== 'string') return fail();
    let value: unknown = v;
    for (const rewrite of rewrites) value = rewrite(value);
    return JSON.stringify(value);
  };
}

function isInteger(def: Def): boolean {
  return (
    INTEGER_FORMATS.has(def.format ?? '') ||
    (def.checks ?? []).some((c) => INTEGER_FORMATS.has(c._zod.def.format ?? ''))
  );
}

/** A part of a schema this module does not write: zod encodes it, JSON.stringify writes it. */
function byZod(schema: Schema): Writer {
  return (value) => {
    const result = z.safeEncode(schema as z.ZodType, value as never);
    return result.success ? JSON.stringify(result.data) : fail();
  };
}

function objectWriter(def: Def): Writer | undefined {
  const catchall = def.catchall as Schema | undefined;
  if (catchall && defOf(catchall).type !== 'never') return undefined;
  const shape = def.shape as Record<string, Schema>;
  const members = Object.keys(shape).map((key) => ({
    key,
    prefix: `${JSON.stringify(key)}:`,
    write: writerOf(shape[key]!),
  }));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail();
    const record = value as Record<string, unknown>;
    let out = '';
    for (const member of members) {
      // A missing key is its schema's to accept (optional, unknown) or refuse, as in zod.
      const text = member.write(record[member.key]);
      if (text === undefined) continue;
      out += out === '' ? member.prefix + text : `,${member.prefix}${text}`;
    }
    return `{${out}}`;
  };
}

function arrayWriter(def: Def): Writer {
  const write = writerOf(def.element as Schema);
  // A list page kept for many requests is frozen (immutable.ts): its text is written once.
  const written = new WeakMap<object, string>();
  return (value) => {
    if (!Array.isArray(value)) return fail();
    const known = written.get(value);
    if (known !== undefined) return known;
    let out = '';
    for (let i = 0; i < value.length; i += 1) {
      const text = write(value[i]) ?? 'null';
      out += i === 0 ? text : `,${text}`;
    }
    out = `[${out}]`;
    if (isDeeplyFrozen(value)) written.set(value, out);
    return out;
  };
}

function recordWriter(def: Def): Writer | undefined {
  const keyType = defOf(def.keyType as Schema).type;
  if (keyType !== 'string') return undefined;
  const write = writerOf(def.valueType as Schema);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail();
    let out = '';
    for (const [key, item] of Object.entries(value)) {
      const text = write(item);
      if (text === undefined) continue;
      out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${text}`;
    }
    return `{${out}}`;
  };
}

/** A union of plain values (strings, numbers, literals, null) is written as any of them. */
function unionWriter(def: Def): Writer | undefined {
  const options = (def.options as Schema[]).map(writerOf);
  const plain = (def.options as Schema[]).every((o) =>
    ['string', 'number', 'boolean', 'null', 'enum', 'literal'].includes(defOf(o).type),
  );
  if (!plain) return undefined;
  return (value) => {
    for (const write of options) {
      try {
        return write(value);
      } catch (error) {
        if (error !== MISMATCH) throw error;
      }
    }
    return fail();
  };
}

function plainWriter(schema: Schema): Writer | undefined {
  const def = defOf(schema);
  if (def.type === 'string') return stringWriter(def);
  if (rewritesOf(def).length > 0) return undefined;
  switch (def.type) {
    case 'number': {
      const integer = isInteger(def);
      // A finite number's JSON is its String(), which is several times quicker.
      return (v) =>
        typeof v === 'number' && (integer ? Number.isSafeInteger(v) : Number.isFinite(v))
          ? String(v)
          : fail();
    }
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? String(v) : fail());
    case 'null':
      return (v) => (v === null ? 'null' : fail());
    case 'any':
    case 'unknown':
      return (v) => JSON.stringify(v);
    case 'enum': {
      const members = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => (members.has(v) ? JSON.stringify(v) : fail());
    }
    case 'literal': {
      const members = new Set(def.values as unknown[]);
      return (v) => (members.has(v) ? JSON.stringify(v) : fail());
    }
    case 'nullable': {
      const write = writerOf(def.innerType as Schema);
      return (v) => (v === null ? 'null' : write(v));
    }
    case 'optional': {
      const write = writerOf(def.innerType as Schema);
      return (v) => (v === undefined ? undefined : write(v));
    }
    case 'readonly':
      return writerOf(def.innerType as Schema);
    case 'object':
      return objectWriter(def);
    case 'array':
      return arrayWriter(def);
    case 'record':
      return recordWriter(def);
    case 'union':
      return unionWriter(def);
    default:
      return undefined;
  }
}

const writers = new WeakMap<Schema, Writer>();

function writerOf(schema: Schema): Writer {
  let writer = writers.get(schema);
  if (!writer) {
    writer = plainWriter(schema) ?? byZod(schema);
    writers.set(schema, writer);
  }
  return writer;
}

/** The JSON text of `value` as zod's serializer writes it, or undefined when a check fails. */
export function compileResponseWriter(schema: Schema): (value: unknown) => string | undefined {
  const write = writerOf(schema);
  return (value) => {
    try {
      return write(value);
    } catch (error) {
      if (error === MISMATCH) return undefined;
      throw error;
    }
  };
}

function compileSerializer(route: Parameters<FastifySerializerCompiler<unknown>>[0]) {
  const byZodSerializer = zodSerializerCompiler(route as never) as (data: unknown) => string;
  const given = route.schema as unknown;
  const schema =
    given instanceof $ZodType
      ? given
      : (given as { properties?: unknown } | null)?.properties instanceof $ZodType
        ? ((given as { properties: Schema }).properties as Schema)
        : undefined;
  if (!schema) return byZodSerializer;
  const write = compileResponseWriter(schema);
  return (data: unknown) => write(data) ?? byZodSerializer(data);
}

/**
 * Fastify's serializer compiler: the writer above, zod's serializer for what fails its checks.
 * Compiled at a route's first answer rather than at start, where it was a tenth of the time to
 * the first answer and most routes are not called soon.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compileSerializer(route))(data);
};
