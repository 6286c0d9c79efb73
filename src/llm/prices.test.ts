import { describe, expect, it } from 'vitest';
import { Budget, estimateCost, projectCost } from './budget.js';
import { costOf, priceFor } from './prices.js';

describe('priceFor', () => {
  it.each([
    ['openai:gpt-4.1-mini', 'gpt-4.1-mini', { input: 0.4, output: 1.6 }],
    ['openai:gpt-4.1-mini-2025-04-14', 'gpt-4.1-mini-2025-04-14', { input: 0.4, output: 1.6 }],
    ['openai:gpt-4.1', 'gpt-4.1', { input: 2, output: 8 }],
    ['openai:o3-mini', 'o3-mini', { input: 1.1, output: 4.4 }],
    ['anthropic:claude-sonnet-4-20250514', 'claude-sonnet-4-20250514', { input: 3, output: 15 }],
    ['ollama:qwen2.5:7b', 'qwen2.5:7b', null],
    ['openai:gpt-4.10', 'gpt-4.10', null],
    ['openai-compatible:http://h/v1#gpt-4.1', 'gpt-4.1', null],
  ])('%s → %j', (id, model, price) => {
    expect(priceFor(id, model)).toEqual(price);
  });

  it('lets overrides win, by id or by bare model name', () => {
    expect(priceFor('openai:gpt-4.1', 'gpt-4.1', { 'openai:gpt-4.1': { input: 1, output: 1 } })).toEqual({
      input: 1,
      output: 1,
    });
    expect(priceFor('ollama:qwen2.5:7b', 'qwen2.5:7b', { 'qwen2.5': { input: 0, output: 0 } })).toEqual({
      input: 0,
      output: 0,
    });
  });

  it.each([
    [{ inputTokens: 1_000_000, outputTokens: 500_000 }, { input: 2, output: 8 }, 6],
    [{ inputTokens: 0, outputTokens: 0 }, { input: 2, output: 8 }, 0],
    [null, { input: 2, output: 8 }, null],
    [{ inputTokens: 5, outputTokens: 5 }, null, null],
  ])('costOf(%j, %j) = %s', (usage, price, cost) => {
    expect(costOf(usage, price)).toBe(cost);
  });
});

describe('estimateCost and projectCost', () => {
  const msg = (chars: number) => [{ role: 'user' as const, content: 'x'.repeat(chars) }];
  it('uses chars/4 for prompts and maxTokens or the expected output', () => {
    const est = estimateCost(
      'openai:gpt-4.1',
      [{ messages: msg(4000) }, { messages: msg(400), maxTokens: 100 }],
      {
        expectedOutputTokens: 200,
      },
    );
    expect(est).toEqual({
      calls: 2,
      inputTokens: 1100,
      outputTokens: 300,
      costUsd: (1100 * 2 + 300 * 8) / 1e6,
    });
  });
  it('is null for unpriced models and zero for no requests', () => {
    expect(estimateCost('ollama:llama3', [{ messages: msg(10) }]).costUsd).toBeNull();
    expect(estimateCost('openai:gpt-4.1', [])).toEqual({
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
    });
    expect(projectCost({ messages: msg(4), maxTokens: 1 }, { input: 1e6, output: 1e6 })).toBe(2);
  });
});

describe('Budget', () => {
  it('refuses a call whose projection would pass the limit, counting calls in flight', () => {
    const budget = new Budget(1);
    const a = budget.reserve(0.6);
    expect(a).not.toBeNull();
    expect(budget.reserve(0.5)).toBeNull();
    budget.settle(a!, 0.3);
    expect(budget.spentUsd).toBeCloseTo(0.3);
    expect(budget.reserve(0.7)).not.toBeNull();
    expect(budget.reserve(0.01)).toBeNull();
  });
  it('lets unpriced calls through and counts them', () => {
    const budget = new Budget(0);
    expect(budget.reserve(null)).not.toBeNull();
    expect(budget.unpricedCalls).toBe(1);
    expect(budget.reserve(0.0001)).toBeNull();
  });
  it.each([-1, Number.NaN])('rejects limit %s', (limit) => {
    expect(() => new Budget(limit)).toThrow(/limit must be >= 0/);
  });
});
