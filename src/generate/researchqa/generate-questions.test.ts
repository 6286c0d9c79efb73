import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeLlm } from '../../testing/index.js';
import { generateDataset, progressPath, questionsManifest } from './generate-dataset.js';
import { generatePaperQuestions } from './generate-questions.js';

const M1 = 'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.';
const M2 = 'Each response was coded independently by two trained annotators.';
const R1 = 'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.';
const PAPER = `# Study\n\n## Methods\n\n${M1} ${M2}\n\n## Results\n\n${R1}\n`;
const FAKE = 'We collected two million responses from every school in the country.';

const ev = (label: string, ...alternatives: string[]) => ({ section_label: label, alternatives });
const generation = (lookupQuote: string) =>
  JSON.stringify({
    chunks: [
      {
        section_label: 'Methods',
        lookup: {
          question: 'How many responses?',
          expected_answer: '1,204',
          evidence: [ev('Methods', lookupQuote)],
        },
        comprehension: {
          question: 'How was coding done?',
          expected_answer: 'Two annotators.',
          evidence: [ev('Methods', M2)],
          rubric: ['a', 'b', 'c'],
        },
      },
    ],
    multi_hop: [
      {
        question: 'Sample and effect?',
        expected_answer: '1,204; 12%',
        evidence: [ev('Methods', M1), ev('Results', R1)],
        reasoning_chain: 'Combine.',
        rubric: ['a', 'b', 'c'],
      },
    ],
    adversarial: [
      {
        question: 'Why did the RCT fail?',
        false_premise: 'There is no RCT.',
        expected_answer: 'The paper reports no RCT.',
        expected_refusal: true,
        evidence: [],
      },
    ],
  });

describe('generatePaperQuestions', () => {
  it('writes rows with the METHODS ids when every quote is verbatim', async () => {
    const llm = new FakeLlm([generation(M1)]);
    const g = await generatePaperQuestions(llm, 'p1', PAPER, { domain: 'education' });
    expect(g.rows.map((r) => [r.row_id, r.question_type])).toEqual([
      ['p1_chunk0_lookup', 'lookup'],
      ['p1_chunk0_comprehension', 'comprehension'],
      ['p1_multihop0', 'multi_hop'],
      ['p1_adversarial0', 'adversarial'],
    ]);
    expect(g.rows[2]).toMatchObject({
      required_sections: ['Methods', 'Results'],
      reasoning_chain: 'Combine.',
      domain: 'education',
    });
    expect(g.rows[3]).toMatchObject({ expected_refusal: true, false_premise: 'There is no RCT.' });
    // The published shape: the rubric is one string of criteria, null on lookup rows.
    expect(g.rows.map((r) => r.judge_rubric)).toEqual([null, '1. a\n2. b\n3. c', '1. a\n2. b\n3. c', null]);
    expect(g.dropped).toEqual({});
    expect(llm.calls).toHaveLength(1);
  });

  it.each([
    ['repaired by the one retry', JSON.stringify({ fixes: [{ id: 'q1', quote: M1 }] }), 4, 1, undefined],
    [
      'still fabricated after the retry → dropped',
      JSON.stringify({ fixes: [{ id: 'q1', quote: FAKE }] }),
      3,
      0,
      1,
    ],
    ['repair reply unusable → dropped', 'no json here', 3, 0, 1],
  ])('a fabricated quote: %s', async (_name, repairReply, rows, repaired, dropped) => {
    const llm = new FakeLlm([generation(FAKE), repairReply, repairReply, repairReply]);
    const g = await generatePaperQuestions(llm, 'p1', PAPER);
    expect(g.rows).toHaveLength(rows);
    expect(g.repaired).toBe(repaired);
    expect(g.dropped['quote-not-verbatim'] ?? undefined).toBe(dropped === undefined ? 0 : dropped);
    const repairPrompt = llm.calls[1]?.messages.at(-1)?.content ?? '';
    expect(repairPrompt).toContain(`q1 (row p1_chunk0_lookup, section "Methods"): ${JSON.stringify(FAKE)}`);
  });

  it('counts a generation that never validates as failed (no rows, no throw)', async () => {
    const llm = new FakeLlm(['{"chunks": []}', '{"chunks": []}', '{"chunks": []}']);
    const g = await generatePaperQuestions(llm, 'p1', PAPER);
    expect(g.rows).toEqual([]);
    expect(g.dropped).toEqual({ 'generation-failed': 1 });
    expect(g.error).toMatch(/invalid structured output/);
  });

  it('a missing paper is counted, not thrown', async () => {
    const g = await generatePaperQuestions(new FakeLlm([]), 'p9', null);
    expect(g.dropped).toEqual({ 'no-paper-text': 1 });
  });
});

describe('generateDataset', () => {
  it('leaves both files in paper order when papers finish out of order (the library, not only the CLI)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-gen-')), 'dataset.jsonl');
    const papers = [
      { id: 'p1', domain: 'education' },
      { id: 'p2', domain: 'education' },
    ];
    // p1's text comes late, so p2 finishes (and is appended) first.
    const load = async (id: string) => {
      if (id === 'p1') await new Promise((r) => setTimeout(r, 50));
      return PAPER;
    };
    const finished: string[] = [];
    const llm = new FakeLlm(() => generation(M1));
    const manifest = questionsManifest({ llm, domain: '', version: 'test' });
    await generateDataset(llm, papers, load, out, {
      manifest,
      concurrency: 2,
      onPaper: (g) => finished.push(g.paperId),
    });
    expect(finished).toEqual(['p2', 'p1']);
    const paperIds = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { paper_id?: string }).paper_id)
        .filter((id) => id !== undefined);
    expect(paperIds(progressPath(out))).toEqual(['p1', 'p2']);
    const rows = paperIds(out);
    expect(rows).toHaveLength(8);
    expect(rows).toEqual([...rows].sort());
  });

  it('is resumable per paper: finished papers are skipped, failed ones retried, no duplicate rows', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-gen-')), 'dataset.jsonl');
    const papers = [
      { id: 'p1', domain: 'education' },
      { id: 'p2', domain: 'education' },
    ];
    const load = async () => PAPER;
    const first = new FakeLlm((req) =>
      req.messages[1]?.content.includes('Paper p1') ? generation(M1) : 'garbage',
    );
    const manifest = questionsManifest({ llm: first, domain: '', version: 'test' });
    const r1 = await generateDataset(first, papers, load, out, { manifest, concurrency: 1 });
    expect([r1.rows, r1.failedPapers.map((f) => f.paperId)]).toEqual([4, ['p2']]);
    const second = new FakeLlm(() => generation(M1));
    const r2 = await generateDataset(second, papers, load, out, { manifest });
    expect([r2.keptPapers, r2.papers, r2.rows]).toEqual([1, 1, 4]);
    expect(second.calls).toHaveLength(1);
    const ids = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { row_id: string }).row_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(8);
    expect(readFileSync(progressPath(out), 'utf8')).toMatch(/^\{"citegeist_manifest":1,"kind":"questions"/);
    expect(readFileSync(progressPath(out), 'utf8')).toMatch(
      /"paper_id":"p2","text_sha256":"[0-9a-f]{64}".*"error":null/,
    );
  });

  it('redoes a finished paper whose text changed since, replacing its rows; the others are kept', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-gen-')), 'dataset.jsonl');
    const papers = [
      { id: 'p1', domain: 'education' },
      { id: 'p2', domain: 'education' },
    ];
    const texts: Record<string, string> = { p1: PAPER, p2: PAPER };
    const load = async (id: string) => texts[id] ?? null;
    const llm = new FakeLlm(() => generation(M1));
    const manifest = questionsManifest({ llm, domain: '', version: 'test' });
    await generateDataset(llm, papers, load, out, { manifest, concurrency: 1 });
    const rowsOf = () =>
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { row_id: string; paper_id: string });
    const before = rowsOf();
    texts.p2 = `${PAPER}\n\nAn erratum added later.`;
    const again = new FakeLlm(() => generation(M1));
    const r = await generateDataset(again, papers, load, out, { manifest });
    expect([r.keptPapers, r.papers, r.changedPapers]).toEqual([1, 1, ['p2']]);
    expect(again.calls).toHaveLength(1);
    expect(again.calls[0]?.messages[1]?.content).toContain('An erratum added later.');
    const after = rowsOf();
    expect(after.filter((x) => x.paper_id === 'p1')).toEqual(before.filter((x) => x.paper_id === 'p1'));
    expect(after.filter((x) => x.paper_id === 'p2')).toHaveLength(
      before.filter((x) => x.paper_id === 'p2').length,
    );
    const progress = readFileSync(progressPath(out), 'utf8').trim().split('\n').slice(1);
    expect(progress.map((l) => (JSON.parse(l) as { paper_id: string }).paper_id).sort()).toEqual([
      'p1',
      'p2',
    ]);
    // Unchanged now: a third run calls nothing.
    const third = new FakeLlm(() => generation(M1));
    const r3 = await generateDataset(third, papers, load, out, { manifest });
    expect([r3.keptPapers, r3.changedPapers, third.calls.length]).toEqual([2, [], 0]);
  });

  it("refuses a dataset file it did not start, and another model's run, leaving both untouched", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-gen-')), 'dataset.jsonl');
    const papers = [{ id: 'p1', domain: '' }];
    const llm = new FakeLlm(() => generation(M1), { id: 'fake:a' });
    writeFileSync(out, '{"row_id":"mine","paper_id":"p9"}\n');
    const manifest = questionsManifest({ llm, domain: '', version: 'test' });
    await expect(generateDataset(llm, papers, async () => PAPER, out, { manifest })).rejects.toMatchObject({
      code: 'RUN_FILE_FOREIGN',
    });
    expect(readFileSync(out, 'utf8')).toBe('{"row_id":"mine","paper_id":"p9"}\n');
    const fresh = join(mkdtempSync(join(tmpdir(), 'citegeist-gen-')), 'dataset.jsonl');
    await generateDataset(llm, papers, async () => PAPER, fresh, { manifest });
    const other = new FakeLlm(() => generation(M1), { id: 'fake:b' });
    const otherManifest = questionsManifest({ llm: other, domain: '', version: 'test' });
    await expect(
      generateDataset(other, papers, async () => PAPER, fresh, { manifest: otherManifest }),
    ).rejects.toMatchObject({ code: 'RUN_MANIFEST_MISMATCH' });
  });
});
