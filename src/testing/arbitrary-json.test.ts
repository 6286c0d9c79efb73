import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RubricScoresSchema } from '../grade/index.js';
import {
  DecompositionSchema,
  HarmSchema,
  JointSchema,
  VerificationSchema,
} from '../grade/vetscore/prompts/index.js';
import { createRandom } from '../stats/index.js';
import { arbitraryJson } from './arbitrary-json.js';

describe('arbitraryJson', () => {
  it.each([
    ['verification', VerificationSchema],
    ['joint', JointSchema],
    ['harm', HarmSchema],
    ['decomposition', DecompositionSchema],
    ['rubric', RubricScoresSchema],
    [
      'misc',
      z.object({
        n: z.number().min(-2).max(2),
        b: z.boolean(),
        k: z.literal('x'),
        u: z.union([z.string(), z.null()]),
      }),
    ],
  ])('every value drawn for the %s schema validates', (_name, schema: z.ZodType) => {
    const random = createRandom(11);
    const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
    for (let i = 0; i < 200; i++) expect(schema.safeParse(arbitraryJson(json, random)).success).toBe(true);
  });

  it('is reproducible from its seed', () => {
    const json = z.toJSONSchema(VerificationSchema) as Record<string, unknown>;
    const draw = () => {
      const random = createRandom(5);
      return Array.from({ length: 5 }, () => arbitraryJson(json, random));
    };
    expect(draw()).toEqual(draw());
  });
});
