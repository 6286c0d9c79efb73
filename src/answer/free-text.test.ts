import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, DocumentSchema } from '../core/index.js';
import type { Retriever } from '../retrieve/index.js';
import { FakeLlm } from '../testing/index.js';
import { FREE_TEXT_PROMPT } from './contract-prompt.js';
import { ExtractiveAnswerer } from './extractive-answerer.js';
import { LlmAnswerer } from './llm-answerer.js';
import { PaperContext } from './paper-context.js';
import { corpusPassages } from './passage-source.js';

const TEXT = [
  '# A study',
  '## Methods',
  'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.',
  '## Results',
  'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.',
].join('\n\n');
const paper = new PaperContext(
  DocumentSchema.parse({ id: 'p1', title: 'A study', source: 'markdown', text: TEXT }),
);
const row = (question: string) =>
  DatasetRowSchema.parse({ row_id: 'r1', paper_id: 'p1', question_type: 'lookup', question });

/** A corpus retriever over fixed passages: returns them in the given order. */
const fixed = (ids: string[]): Retriever => ({
  id: 'fixed',
  retrieve: async (_q, k) =>
    ids.slice(0, k).map((id, i) => ({ id, docId: id.split('#')[0]!, score: 1 - i / 10 })),
});
const CORPUS: Record<string, { text: string; label: string }> = {
  'p9#0': { text: 'The survey had 1,204 responses from teachers in total.', label: 'Other paper' },
  'p9#recipe': { text: 'Material: none. Method: survey.', label: 'Other paper (recipe)' },
};

describe('--free-text answers', () => {
  it('extractive: plain sentences without markers or evidence block, no citation contract', async () => {
    const answerer = new ExtractiveAnswerer({ freeText: true });
    expect(answerer.contract).toBe(false);
    const out = await answerer.answer({ row: row('How many survey responses were collected?'), paper });
    expect(out.answer).toBe(
      'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.',
    );
    expect(out.citations).toEqual([]);
    expect(out.error).toBeNull();
    const yesNo = await answerer.answer({
      row: row('Did coaching increase self-efficacy of teachers?'),
      paper,
    });
    expect(yesNo.answer).toBe('Yes.');
  });

  it('extractive over a corpus source: needs no paper, skips hits it cannot resolve', async () => {
    const answerer = new ExtractiveAnswerer({
      freeText: true,
      passages: corpusPassages(fixed(['missing#3', 'p9#0']), (id) => CORPUS[id]),
    });
    const out = await answerer.answer({ row: row('How many survey responses from teachers?'), paper: null });
    expect(out.answer).toBe('The survey had 1,204 responses from teachers in total.');
  });

  it('LLM: the free-text prompt over numbered retrieved passages, reply kept as the answer', async () => {
    const llm = new FakeLlm(['  1,204 responses.  ']);
    const answerer = new LlmAnswerer(llm, {
      freeText: true,
      k: 2,
      passages: corpusPassages(fixed(['p9#0', 'p9#recipe']), (id) => CORPUS[id]),
    });
    expect(answerer.contract).toBe(false);
    const out = await answerer.answer({ row: row('How many responses?'), paper: null });
    expect(out).toMatchObject({
      answer: '1,204 responses.',
      citations: [],
      contextMode: 'retrieval',
      error: null,
    });
    const request = llm.calls[0]!;
    expect(request.messages[0]).toEqual({ role: 'system', content: FREE_TEXT_PROMPT });
    expect(request.messages[1]!.content).toBe(
      'Context:\n<<<CONTEXT\n[1] Other paper\nThe survey had 1,204 responses from teachers in total.\n\n[2] Other paper (recipe)\nMaterial: none. Method: survey.\nCONTEXT>>>\n\nQuestion: How many responses?',
    );
  });

  it('with the default paper source, a missing paper is a failed row', async () => {
    const out = await new LlmAnswerer(new FakeLlm([]), { freeText: true }).answer({
      row: row('Q?'),
      paper: null,
    });
    expect(out.error).toMatch(/paper p1 is not available/);
  });
});
