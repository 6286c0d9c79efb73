import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, DocumentSchema } from '../core/index.js';
import { LeadAnswerer } from './lead-answerer.js';
import { PaperContext } from './paper-context.js';

const TEXT = [
  '# A study',
  '## Abstract',
  'We study coaching for teachers. Coaching raised self-efficacy in three districts. It was cheap.',
  '## Results',
  'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.',
].join('\n\n');
const paper = new PaperContext(
  DocumentSchema.parse({ id: 'p1', title: 'A study', source: 'markdown', text: TEXT }),
);
const row = (question: string) =>
  DatasetRowSchema.parse({ row_id: 'r1', paper_id: 'p1', question_type: 'lookup', question });

describe('LeadAnswerer', () => {
  it('answers with the paper’s first two sentences, cited verbatim, whatever the question', async () => {
    const lead = new LeadAnswerer();
    const a = await lead.answer({ row: row('How large was the increase?'), paper });
    const b = await lead.answer({ row: row('Is the sky green?'), paper });
    expect(a.answer).toBe(b.answer);
    expect(a.citations.map((c) => c.quote)).toEqual([
      'We study coaching for teachers.',
      'Coaching raised self-efficacy in three districts.',
    ]);
    for (const c of a.citations) expect(TEXT).toContain(c.quote);
    expect(a.error).toBeNull();
    expect(lead.settings).toEqual({ model: 'lead', sentences: 2 });
  });

  it('fails (never an empty success) when the paper is not available', async () => {
    const out = await new LeadAnswerer().answer({ row: row('Q?'), paper: null });
    expect(out.error).toMatch(/not available/);
  });
});
