import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeEmbedder } from './fake-embedder.js';
import { FakeLlm } from './fake-llm.js';

const Answer = z.object({ answer: z.string(), score: z.number().int().min(1).max(5) });
const ask = { messages: [{ role: 'user' as const, content: 'Rate it.' }], schema: Answer };

describe('FakeLlm', () => {
  it('validates a fenced, chatty reply', async () => {
    const llm = new FakeLlm(['Sure!\n```json\n{"answer": "yes", "score": 4}\n```\nHope that helps.']);
    const result = await llm.generateObject(ask);
    expect(result).toMatchObject({ ok: true, value: { answer: 'yes', score: 4 }, retries: 0 });
  });

  it('repairs once with the validation error shown to the model', async () => {
    const llm = new FakeLlm(['{"answer": "yes", "score": 9}', '{"answer": "yes", "score": 5}']);
    const result = await llm.generateObject(ask);
    expect(result).toMatchObject({ ok: true, value: { score: 5 }, retries: 1 });
    const repair = llm.calls[1]?.messages.at(-1)?.content ?? '';
    expect(repair).toMatch(/score/);
    expect(llm.calls[1]?.messages.at(-2)).toEqual({
      role: 'assistant',
      content: '{"answer": "yes", "score": 9}',
    });
  });

  it('returns failed with the raw text after bounded repairs, never throws', async () => {
    const llm = new FakeLlm(['not json', 'still not', '{"answer": 3}']);
    const result = await llm.generateObject({ ...ask, maxRepairs: 2 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toMatch(/after 2 repair/);
      expect(result.raw).toBe('{"answer": 3}');
    }
    expect(llm.remaining).toBe(0);
  });

  it('passes a scripted call failure through as failed', async () => {
    const llm = new FakeLlm([{ fail: 'HTTP 500' }]);
    expect(await llm.generateObject(ask)).toMatchObject({ ok: false, reason: 'HTTP 500' });
  });

  it('throws when its script runs out', async () => {
    const llm = new FakeLlm([]);
    await expect(llm.generate({ messages: [] })).rejects.toThrow(/script exhausted/);
  });
});

describe('FakeEmbedder', () => {
  it('is deterministic, normalised and puts shared words close together', async () => {
    const e = new FakeEmbedder(128);
    const [a, b, c] = await e.embed(
      ['dose of amoxicillin in dogs', 'amoxicillin dose for dogs', 'tax law'],
      'passage',
    );
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
    expect(e.calls).toHaveLength(1);
  });
});
