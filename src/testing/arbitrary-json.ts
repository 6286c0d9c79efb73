/**
 * Schema-valid but arbitrary model replies: a value for a JSON Schema (the subset `z.toJSONSchema`
 * emits: object, array, string, integer, number, boolean, null, enum, const, anyOf/oneOf, type
 * lists) drawn from a seeded generator. Strings are runs of Latin filler words, so a "quote" in
 * such a reply is found in no real text. A judge behind a fake server answering this way has the
 * right shape and no knowledge: whatever it claims, it cannot show where the support is.
 */
import { createRandom, type RandomSource, randomInt } from '../stats/index.js';
import type { FakeResponder } from './fake-http-server.js';

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut ' +
  'labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris ' +
  'nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse ' +
  'cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui'
).split(' ');

type Schema = Record<string, unknown>;

function words(random: RandomSource, min: number, max: number): string {
  const n = min + randomInt(random, max - min + 1);
  return Array.from({ length: n }, () => WORDS[randomInt(random, WORDS.length)]).join(' ');
}

function pick<T>(random: RandomSource, list: readonly T[]): T {
  return list[randomInt(random, list.length)]!;
}

function integer(schema: Schema, random: RandomSource): number {
  const lo = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0;
  const hi = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : lo + 100;
  return lo + randomInt(random, hi - lo + 1);
}

function object(schema: Schema, random: RandomSource): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    // Optional fields are present three times in four (a judge usually fills them in).
    if (required.has(key) || random() < 0.75) out[key] = arbitraryJson(sub, random);
  }
  return out;
}

function ofType(type: string, schema: Schema, random: RandomSource): unknown {
  switch (type) {
    case 'object':
      return object(schema, random);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 3;
      const n = min + randomInt(random, max - min + 1);
      return Array.from({ length: n }, () => arbitraryJson((schema.items ?? {}) as Schema, random));
    }
    case 'string':
      return words(random, 2, 12);
    case 'integer':
      return integer(schema, random);
    case 'number': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const hi = typeof schema.maximum === 'number' ? schema.maximum : lo + 100;
      return lo + random() * (hi - lo);
    }
    case 'boolean':
      return random() < 0.5;
    case 'null':
      return null;
    default:
      return words(random, 1, 4);
  }
}

/** A value valid against `schema`, drawn from `random`. */
export function arbitraryJson(schema: Schema, random: RandomSource): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pick(random, schema.enum);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return arbitraryJson(pick(random, union), random);
  // A nullable field is null one time in four: mostly the judge writes something.
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    const nonNull = types.filter((t) => t !== 'null');
    const type =
      nonNull.length > 0 && (nonNull.length === types.length || random() < 0.75)
        ? pick(random, nonNull)
        : 'null';
    return ofType(type, schema, random);
  }
  return ofType(typeof schema.type === 'string' ? schema.type : 'string', schema, random);
}

/**
 * A fake-server responder that answers every request with arbitrary JSON valid against the schema
 * the client asked for (seeded: the same seed gives the same replies in the same order).
 */
export function arbitraryReplies(seed: number): FakeResponder {
  const random = createRandom(seed);
  return (request) => {
    if (request.schema === undefined)
      return { status: 400, message: 'this fake answers structured requests only' };
    return { text: JSON.stringify(arbitraryJson(request.schema as Schema, random)) };
  };
}
