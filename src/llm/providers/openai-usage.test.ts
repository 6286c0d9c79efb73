import { describe, expect, it } from 'vitest';
import { parseChatCompletion, parseUsage } from './openai-compatible.js';

describe('usage reported by OpenAI-compatible servers', () => {
  it.each([
    [
      'chat-completions names',
      { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      { inputTokens: 12, outputTokens: 3 },
    ],
    ['gateway names', { input_tokens: 12, output_tokens: 3 }, { inputTokens: 12, outputTokens: 3 }],
    ['prompt and total only', { prompt_tokens: 12, total_tokens: 15 }, { inputTokens: 12, outputTokens: 3 }],
    // Only a total: charged as output, the dearer side, so a budget is not underestimated.
    ['total only', { total_tokens: 15 }, { inputTokens: 0, outputTokens: 15 }],
    ['none', undefined, null],
    ['empty object', {}, null],
    ['not numbers', { prompt_tokens: '12' }, null],
  ])('%s', (_name, usage, expected) => {
    expect(parseUsage(usage as Parameters<typeof parseUsage>[0])).toEqual(expected);
  });

  it('a reply without usage says so (null), it does not claim 0 tokens', () => {
    const reply = parseChatCompletion({ choices: [{ message: { content: 'x' } }] });
    expect(reply).toMatchObject({ ok: true, usage: null });
  });
});
