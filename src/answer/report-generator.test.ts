import { describe, expect, it } from 'vitest';
import { type ReportRequest, reportLength } from '../formats/index.js';
import type { Passage, Retriever } from '../retrieve/index.js';
import { FakeLlm } from '../testing/index.js';
import { ExtractiveReportWriter, LlmReportWriter, reportRunLine } from './report-generator.js';

const passage = (id: string, text: string): Passage => ({
  id,
  docId: id.split('#')[0]!,
  text,
  start: 0,
  end: text.length,
  sectionPath: [],
  page: null,
  title: 'Paper',
});
const passages = [
  passage(
    'p1#0',
    'Crows in the Vienna zoo form flocks. The local flock was smallest during the breeding season. Unrelated words follow here today.',
  ),
  passage(
    'p1#1',
    'Flock size of the crows in the zoo changed with temperature and weather over the year of the study.',
  ),
  passage('p2#0', 'The local flock was smallest during the breeding season, as counted.'),
];
const retriever: Retriever = {
  id: 'fixed',
  retrieve: async () => passages.map((p, i) => ({ id: p.id, docId: p.docId, score: 1 - i / 10 })),
};
const ctx = { retriever, passages: new Map(passages.map((p) => [p.id, p])), k: 3 };
const request: ReportRequest = {
  id: 'crows',
  title: 'Crow flock size',
  background: null,
  problemStatement: 'How did the flock size of the zoo crows change?',
  limit: null,
  raw: {},
  where: 'q',
};

describe('ExtractiveReportWriter', () => {
  it('cites the passage of every sentence, skips near-repeats and keeps to the limit', async () => {
    const draft = await new ExtractiveReportWriter(ctx).write({
      request,
      limit: 400,
      lengthMode: 'characters',
    });
    if (!draft.ok) throw new Error(draft.reason);
    const texts = draft.sentences.map((s) => s.text);
    expect(texts.filter((t) => t.includes('breeding season'))).toHaveLength(1); // the repeat in p2#0 is skipped
    expect(reportLength(texts, 'characters')).toBeLessThanOrEqual(400);
    for (const s of draft.sentences) {
      const [[id, confidence]] = s.citations as [[string, number]];
      expect(ctx.passages.get(id)!.text.replace(/\s+/g, ' ')).toContain(s.text);
      expect(confidence).toBeGreaterThan(0);
      expect(confidence).toBeLessThanOrEqual(100);
    }
    const tight = await new ExtractiveReportWriter(ctx).write({
      request,
      limit: 110,
      lengthMode: 'characters',
    });
    expect(tight.ok && tight.sentences.length).toBe(1);
    const line = reportRunLine(draft.sentences, { teamId: 't', runId: 'r', topicId: 'crows' });
    expect(line.references).toEqual([...new Set(draft.sentences.map((s) => s.citations[0]![0]))]);
  });
});

describe('LlmReportWriter', () => {
  it('maps the passage numbers the model cites to passage ids and refuses numbers it was not shown', async () => {
    let call = 0;
    const llm = new FakeLlm(() =>
      ++call === 1
        ? '{"sentences": [{"text": "Flocks shrank.", "citations": [{"passage": 9, "confidence": 80}]}]}'
        : '{"sentences": [{"text": "Flocks shrank in the breeding season.", "citations": [{"passage": 1, "confidence": 80}, {"passage": 3, "confidence": 60}]}, {"text": "Weather mattered.", "citations": [{"passage": 2, "confidence": 70}]}]}',
    );
    const draft = await new LlmReportWriter(llm, ctx).write({ request, limit: 50, lengthMode: 'characters' });
    expect(draft).toEqual({
      ok: true,
      sentences: [
        {
          text: 'Flocks shrank in the breeding season.',
          citations: [
            ['p1#0', 80],
            ['p2#0', 60],
          ],
        },
      ],
    });
    expect(llm.calls).toHaveLength(2); // the out-of-range passage number was sent back for repair
  });
});
