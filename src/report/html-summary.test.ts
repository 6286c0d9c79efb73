import { describe, expect, it } from 'vitest';
import { type HtmlSummaryInput, renderHtmlSummary } from './html-summary.js';

const input: HtmlSummaryInput = {
  title: 'citegeist demo',
  generatedAt: '2026-11-29T12:00:00Z',
  facts: [['dataset', 'demo.jsonl']],
  metrics: [
    { id: 'citation_accuracy', label: 'citation accuracy' },
    { id: 'refusal_correctness', label: 'refusal correctness' },
  ],
  models: [
    {
      model: 'extractive',
      rows: 2,
      answerFailures: 0,
      metrics: {
        citation_accuracy: { mean: 0.5, n: 1, ci: [0.5, 0.5], failed: 0 },
        refusal_correctness: { mean: null, n: 0, ci: null, failed: 1 },
      },
    },
  ],
  rows: [
    {
      rowId: 'p_chunk0_lookup',
      model: 'extractive',
      paperId: 'p',
      questionType: 'lookup',
      question: 'What is <b>x</b>?',
      expectedAnswer: '42',
      answer: 'It is 42 [^1]. <script>alert(1)</script>',
      error: null,
      citations: [
        { key: '1', quote: 'x is "42"', found: true, rule: 'exact', page: 3, section: '2 Data' },
        { key: '2', quote: 'made up', found: false },
        { key: '3', quote: 'x is "92" of the cases', found: true, rule: 'prefix', prefixOnly: true, page: 3 },
      ],
      scores: { citation_accuracy: 0.5 },
    },
  ],
};

describe('renderHtmlSummary', () => {
  const html = renderHtmlSummary(input);

  it('marks a citation found only by a prefix rule as such', () => {
    expect(html).toMatch(/\[3\] <span class="missing">prefix only<\/span>.*\(prefix, page 3\)/);
    expect(html).toMatch(/\[1\] <span class="found">found<\/span> \(exact/);
  });

  it('escapes model and dataset text so nothing becomes markup', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('What is &lt;b&gt;x&lt;/b&gt;?');
    expect(html).toContain('x is &quot;42&quot;');
  });

  it('shows each metric with its n, CI and failures, and n/a for a metric with no scores', () => {
    expect(html).toContain('0.500 <span class="muted">[0.500, 0.500]</span> <span class="muted">n=1</span>');
    expect(html).toMatch(/n\/a <span class="muted">n=0<\/span> <span class="missing">1 failed<\/span>/);
  });

  it('says where each citation was found, and flags the one that was not', () => {
    expect(html).toContain('found</span> (exact, page 3, 2 Data)');
    expect(html).toContain('not found in the paper');
  });

  it('is self-contained: no scripts and no external resources', () => {
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
  });
});
