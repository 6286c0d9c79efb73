import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from '../structured.js';
import { toGeminiSchema } from './gemini-schema.js';

describe('toGeminiSchema', () => {
  it('keeps the supported subset and drops the rest', () => {
    const schema = z.object({
      verdict: z.enum(['supported', 'partial', 'unsupported']),
      score: z.number().int().min(0).max(5),
      quote: z.string().nullable(),
      claims: z.array(z.object({ text: z.string(), kind: z.literal('claim') })).min(1),
      note: z.string().regex(/^x/).optional(),
    });
    const out = toGeminiSchema(jsonSchemaOf(schema));
    expect(out).toEqual({
      type: 'object',
      properties: {
        verdict: { type: 'string', enum: ['supported', 'partial', 'unsupported'] },
        score: { type: 'integer', minimum: 0, maximum: 5 },
        quote: { type: 'string', nullable: true },
        claims: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { text: { type: 'string' }, kind: { type: 'string', enum: ['claim'] } },
            required: ['text', 'kind'],
          },
        },
        note: { type: 'string' },
      },
      required: ['verdict', 'score', 'quote', 'claims'],
    });
  });

  it.each([
    [{ type: ['integer', 'null'] }, { type: 'integer', nullable: true }],
    [{ enum: [1, 2, null] }, { type: 'string', enum: ['1', '2'], nullable: true }],
    [
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
    ],
    [
      { $defs: { N: { type: 'object', properties: { v: { type: 'string' } } } }, $ref: '#/$defs/N' },
      { type: 'object', properties: { v: { type: 'string' } } },
    ],
    [{ $ref: '#/$defs/Missing' }, { type: 'object' }],
  ])('%j → %j', (input, expected) => {
    expect(toGeminiSchema(input)).toEqual(expected);
  });
});
