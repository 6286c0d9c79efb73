import { describe, expect, it } from 'vitest';
import { circularityWarnings, modelFamily } from './family.js';

describe('modelFamily', () => {
  it.each([
    ['openai:gpt-4.1-mini', 'openai'],
    ['o3', 'openai'],
    ['openai:o4-mini', 'openai'],
    ['gpt-oss-20b', 'openai'],
    ['anthropic:claude-sonnet-4-20250514', 'anthropic'],
    ['gemini:gemini-2.5-flash', 'google'],
    ['ollama:gemma3:4b', 'google'],
    ['vllm:meta-llama/Llama-3.1-8B-Instruct', 'meta'],
    ['ollama:llama3.2', 'meta'],
    ['ollama:qwen2.5:7b', 'alibaba'],
    ['Qwen/QwQ-32B', 'alibaba'],
    ['mistral-large-latest', 'mistral'],
    ['mixtral-8x7b', 'mistral'],
    ['deepseek-r1:14b', 'deepseek'],
    ['phi-4', 'microsoft'],
    ['phi3:mini', 'microsoft'],
    ['command-r-plus', 'cohere'],
    ['gguf:models/Llama-3.2-3B-Instruct-Q4_K_M.gguf', 'meta'],
    ['openai-compatible:http://h/v1#Qwen2.5-72B', 'alibaba'],
    ['granite3.1-dense', 'ibm'],
    ['my-finetune', 'unknown'],
    ['openai:ft:custom', 'openai'],
    ['photon', 'unknown'],
    ['ollama:olmo2', 'ai2'],
  ])('%s → %s', (name, family) => {
    expect(modelFamily(name)).toBe(family);
  });
});

describe('circularityWarnings', () => {
  it('warns once per same-family pair and more strongly for self-grading', () => {
    const warnings = circularityWarnings(
      ['openai:gpt-4.1', 'anthropic:claude-sonnet-4'],
      ['openai:gpt-4.1', 'openai:gpt-4.1-mini', 'ollama:qwen2.5:7b'],
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/grades its own answers/);
    expect(warnings[1]).toMatch(/both from the openai family/);
  });

  it.each([
    [[], ['openai:gpt-4.1']],
    [['my-judge'], ['my-system']],
    [['anthropic:claude-3-5-haiku'], ['gemini:gemini-2.5-pro']],
  ])('returns nothing for %j vs %j', (judges, systems) => {
    expect(circularityWarnings(judges, systems)).toEqual([]);
  });

  it('accepts providers', () => {
    expect(circularityWarnings([{ id: 'a', family: 'meta' }], [{ id: 'b', family: 'meta' }])).toHaveLength(1);
  });
});
