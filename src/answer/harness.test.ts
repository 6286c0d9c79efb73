import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManifest, type DatasetRow, DatasetRowSchema, DocumentSchema } from '../core/index.js';
import { FakeLlm } from '../testing/index.js';
import type { Answerer } from './answerer.js';
import { ExtractiveAnswerer } from './extractive-answerer.js';
import { runAnswers } from './harness.js';
import { LlmAnswerer } from './llm-answerer.js';
import { PaperContext } from './paper-context.js';
import { qasperPrediction } from './qasper-predictions.js';

const TEXT = [
  '# A study',
  '## Methods',
  'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.',
  'Each response was coded by two annotators with a kappa of 0.81.',
  '## Results',
  'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.',
  'The effect did not persist after one year.',
].join('\n\n');
const paper = new PaperContext(
  DocumentSchema.parse({ id: 'p1', title: 'A study', source: 'markdown', text: TEXT }),
);
const papers = async (id: string) => (id === 'p1' ? paper : null);
const row = (id: string, question: string, extra: Partial<DatasetRow> = {}) =>
  DatasetRowSchema.parse({ row_id: id, paper_id: 'p1', question_type: 'lookup', question, ...extra });
const ROWS = [
  row('r1', 'How many survey responses were collected?'),
  row('r2', 'What was the increase in self-efficacy?'),
  row('r3', 'x', { paper_id: 'gone' }),
];
const tmp = () => join(mkdtempSync(join(tmpdir(), 'citegeist-harness-')), 'run.jsonl');
/** The run target of an answerer: its file and a manifest naming the answerer's settings. */
const target = (path: string, answerer: Answerer) => ({
  path,
  manifest: createManifest({
    kind: 'run',
    defaultLabel: answerer.id,
    settings: { ...answerer.settings },
    inputs: { dataset: { sha256: '0'.repeat(64) } },
    version: 'test',
  }),
});
/** The rows of a run file (its manifest line left out). */
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const CONTRACT_REPLY =
  'They collected 1,204 responses [^1].\n---EVIDENCE---\n@cite[1]\n"We collected 1,204 survey responses from teachers"\n---END-EVIDENCE---';

describe('runAnswers with an LLM (FakeLlm)', () => {
  it('records answers, citations, usage, cost and failures; resumes without duplicates, retrying failures', async () => {
    const out = tmp();
    const llm = new FakeLlm([CONTRACT_REPLY, { fail: 'HTTP 503 after 5 attempts' }], {
      costPerCallUsd: 0.01,
      id: 'fake:m',
    });
    const first = await runAnswers(ROWS, new LlmAnswerer(llm), papers, target(out, new LlmAnswerer(llm)), {
      concurrency: 1,
    });
    expect([first.answered, first.failed]).toEqual([3, 2]);
    const rows = lines(out);
    expect(rows.map((r) => [r.row_id, r.error !== null])).toEqual([
      ['r1', false],
      ['r2', true],
      ['r3', true],
    ]);
    expect(rows[0]).toMatchObject({
      model: 'fake:m',
      contract: true,
      context_mode: 'full',
      cost_usd: 0.01,
      citations: [{ key: '1', quote: 'We collected 1,204 survey responses from teachers' }],
    });
    expect(rows[2]?.error).toMatch(/paper gone is not available/);
    // Resume: r1 kept, r2 retried (now succeeds), r3 retried (still no paper).
    const again = new FakeLlm([CONTRACT_REPLY], { id: 'fake:m' });
    const second = await runAnswers(
      ROWS,
      new LlmAnswerer(again),
      papers,
      target(out, new LlmAnswerer(again)),
      {
        concurrency: 2,
      },
    );
    expect([second.answered, second.skipped, second.failed]).toEqual([2, 1, 1]);
    const after = lines(out);
    expect(after.map((r) => r.row_id).sort()).toEqual(['r1', 'r2', 'r3']);
    expect(again.calls).toHaveLength(1);
  });

  it('ignores a torn last line from a killed run', async () => {
    const out = tmp();
    const answerer = new ExtractiveAnswerer();
    writeFileSync(
      out,
      `${JSON.stringify(target(out, answerer).manifest)}\n{"row_id":"r1","model":"extractive","answer":"a","citations":[],"error":null}\n{"row_id":"r2","mod`,
    );
    const result = await runAnswers(ROWS.slice(0, 2), answerer, papers, target(out, answerer));
    expect([result.answered, result.skipped]).toEqual([1, 1]);
    expect(lines(out).map((r) => r.row_id)).toEqual(['r1', 'r2']);
  });

  it.each([
    ['auto, fits', 'auto', 128_000, 'full'],
    ['auto, too long for the window', 'auto', 2_300, 'retrieval'],
    ['forced retrieval', 'retrieval', 128_000, 'retrieval'],
  ] as const)('context mode: %s', async (_n, context, window, expected) => {
    const llm = new FakeLlm(() => CONTRACT_REPLY, { contextWindow: window });
    const answerer = new LlmAnswerer(llm, { context, k: 2, maxTokens: 1000 });
    const big = new PaperContext(
      DocumentSchema.parse({
        id: 'p1',
        title: 't',
        source: 'markdown',
        text: `${TEXT}\n\n${'Filler paragraph about other topics entirely. '.repeat(20)}`,
      }),
    );
    const outcome = await answerer.answer({ row: ROWS[0]!, paper: big });
    expect(outcome.contextMode).toBe(expected);
    const prompt = llm.calls[0]?.messages.at(-1)?.content ?? '';
    if (expected === 'retrieval') expect(prompt).toMatch(/Passages retrieved[\s\S]*1,204/);
  });

  it('baseline mode sends no contract and keeps no citations', async () => {
    const llm = new FakeLlm([CONTRACT_REPLY]);
    const outcome = await new LlmAnswerer(llm, { baseline: true }).answer({ row: ROWS[0]!, paper });
    expect(outcome.citations).toEqual([]);
    expect(llm.calls[0]?.messages[0]?.content).not.toMatch(/EVIDENCE/);
  });

  it('an empty reply is a failed row', async () => {
    const outcome = await new LlmAnswerer(new FakeLlm(['  '])).answer({ row: ROWS[0]!, paper });
    expect(outcome.error).toMatch(/empty reply/);
  });
});

describe('ExtractiveAnswerer', () => {
  const ex = new ExtractiveAnswerer();
  it.each([
    [
      'How many survey responses were collected?',
      /^We collected 1,204 survey responses/,
      'We collected 1,204 survey responses',
    ],
    [
      'Did the effect persist after one year?',
      /^No \[\^1\]\.$/,
      'The effect did not persist after one year.',
    ],
    ['Was a kappa reported for the annotators?', /^Yes \[\^1\]\.$/, 'kappa of 0.81'],
    ['Which quantum chromodynamics lattice was simulated?', /^The paper does not say\.$/, null],
  ])('%s', async (question, answer, quote) => {
    const outcome = await ex.answer({ row: row('q', question), paper });
    expect(outcome.answer).toMatch(answer);
    if (quote === null) expect(outcome.citations).toEqual([]);
    else {
      expect(outcome.citations[0]?.quote).toContain(quote);
      for (const c of outcome.citations) expect(TEXT.replace(/\s+/g, ' ')).toContain(c.quote);
    }
  });

  it('fails (does not throw) without the paper', async () => {
    expect((await ex.answer({ row: ROWS[0]!, paper: null })).error).toMatch(/not available/);
  });
});

describe('qasperPrediction', () => {
  const q = row('p1_q', 'How many?', { metadata: { question_id: 'abc' } });
  it.each([
    [
      {
        answer: 'We collected 1,204 [^1].',
        citations: [{ key: '1', quote: 'We collected 1,204 survey responses' }],
      },
      'We collected 1,204.',
      ['We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.'],
    ],
    [{ answer: 'The paper does not say.', citations: [] }, 'Unanswerable', []],
    [
      { answer: 'Yes [^1].', citations: [{ key: '1', quote: 'not in the paper at all, made up' }] },
      'Yes.',
      [],
    ],
  ])('%j', (run, answer, evidence) => {
    const line = qasperPrediction(
      q,
      {
        row_id: 'p1_q',
        model: 'm',
        contract: true,
        latency_ms: null,
        usage: null,
        cost_usd: null,
        retries: 0,
        cached: false,
        error: null,
        ...run,
      },
      paper,
    );
    expect(line).toEqual({ question_id: 'abc', predicted_answer: answer, predicted_evidence: evidence });
  });

  it('gives null for rows not imported from QASPER', () => {
    expect(
      qasperPrediction(
        ROWS[0]!,
        {
          row_id: 'r1',
          model: 'm',
          answer: '',
          citations: [],
          contract: true,
          latency_ms: null,
          usage: null,
          cost_usd: null,
          retries: 0,
          cached: false,
          error: null,
        },
        paper,
      ),
    ).toBeNull();
  });
});
