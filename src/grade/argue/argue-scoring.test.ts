import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNuggetBanks } from '../../formats/index.js';
import { allValues, topicValues } from './argue-metrics.js';
import { argueRunRows, formatArgueTsv, parseArgueTsv } from './argue-tsv.js';
import { countReport, emptyCounts, type ReportCounts } from './count-report.js';
import { indexNuggetBank, type NuggetIndex } from './nugget-index.js';
import { parseJudgments, scoreJudgedReports, scoreRows } from './score-judgments.js';

const fixtures = join(import.meta.dirname, '__fixtures__');
const read = (f: string) => readFileSync(join(fixtures, f), 'utf8');

function indexes(labelWeights?: Record<string, number>): Map<string, NuggetIndex> {
  const out = new Map<string, NuggetIndex>();
  for (const [id, b] of readNuggetBanks(join(fixtures, 'nuggets'))) {
    out.set(id, indexNuggetBank(b.bank, b.where, labelWeights ? { labelWeights } : {}));
  }
  return out;
}

const counts = (c: Partial<ReportCounts>): ReportCounts => ({ ...emptyCounts(0, 0), ...c });
/** Claims of support with no grounding (Auto-ARGUE's layout): counted as the judge said. */
const ungrounded = (citations: number, nuggetMatches: number) => ({
  citations: { located: 0, unverified: 0, trusted: 0, ungrounded: citations },
  nuggetMatches: { located: 0, unverified: 0, trusted: 0, ungrounded: nuggetMatches },
});

describe('counting a judged report (METHODS §5 step 6)', () => {
  const judged = parseJudgments(read('judgments.jsonl'), 'judgments.jsonl');
  const byTopic = new Map(judged.reports.map((r) => [r.topicId, r]));
  const idx = indexes();

  it('reads every line; the later line of a (run, topic) supersedes the earlier', () => {
    expect(judged.reports.map((r) => r.topicId)).toEqual(['A', 'C', 'B']);
    expect(judged.superseded).toBe(1);
    expect(judged.problems).toEqual([]);
    expect(byTopic.get('B')!.where).toBe('judgments.jsonl line 4');
  });

  it('counts topic A by every rule (hand-derived)', () => {
    expect(countReport(byTopic.get('A')!.sentences, idx.get('A')!)).toEqual(
      counts({
        sentences: 6,
        characterCount: 122, // code points: "é" is one
        // two cited sentences, the confirmed negative one, the first instance needing a citation
        sentencesWithCitationsOrRequiring: 4,
        // the sentence with an unattested citation is not correctly cited; the confirmed negative is
        correctlyCitedSentences: 2,
        nuggets: 3,
        nuggetsWeighted: 4, // importance 2 on one question, 1 on the others
        correctNuggets: 2, // OR matched; AND with one of two answers is not; OR from the negative sentence
        correctNuggetsWeighted: 3,
        citations: 3,
        relevantCitations: 2,
        supportingCitations: 2,
        // two attested citations; one match per sentence of the first three (the first sentence's
        // is recorded under both its citations, and tallied once)
        grounding: ungrounded(2, 3),
      }),
    );
  });

  it('counts topic B: an OR nugget with a non-gold answer counts, AND with all answers counts, unknown questions are ignored', () => {
    expect(countReport(byTopic.get('B')!.sentences, idx.get('B')!)).toEqual(
      counts({
        sentences: 1,
        characterCount: 25,
        sentencesWithCitationsOrRequiring: 1,
        correctlyCitedSentences: 1,
        nuggets: 2,
        nuggetsWeighted: 2,
        correctNuggets: 2,
        correctNuggetsWeighted: 2,
        citations: 1,
        relevantCitations: 1,
        supportingCitations: 1,
        unknownQuestions: 1,
        unknownAnswers: 1,
        grounding: ungrounded(1, 3),
      }),
    );
  });

  it('counts the failed judgment of topic C (never read as "not attested")', () => {
    expect(countReport(byTopic.get('C')!.sentences, idx.get('C')!)).toMatchObject({
      failed: 1,
      supportingCitations: 0,
    });
  });

  it('scores the run: topic C left out as failed, D missing, TSV equal to the Python/NumPy reference', () => {
    const [run] = scoreJudgedReports(judged.reports, idx);
    expect(run!.failedTopics).toEqual([{ topicId: 'C', failed: 1, where: 'judgments.jsonl line 3' }]);
    expect(run!.missingTopics).toEqual(['D']);
    expect(formatArgueTsv(scoreRows([run!]))).toBe(read('expected.scores.tsv'));
    const [penalized] = scoreJudgedReports(judged.reports, idx, { penalizeMissingTopics: true });
    expect(formatArgueTsv(scoreRows([penalized!]))).toBe(read('expected.penalized.scores.tsv'));
  });

  it('weights importance labels as configured, and reports labels it had to weight as 1', () => {
    const banks = readNuggetBanks(join(fixtures, 'nuggets'));
    const a = banks.get('A')!.bank;
    const nugget = a.nugget_bank!['What is alpha?'] as { importance?: unknown };
    nugget.importance = 'vital';
    expect(indexNuggetBank(a, 'A', { labelWeights: { vital: 3 } }).weightedCount).toBe(6);
    expect(indexNuggetBank(a, 'A').unweightedLabels).toEqual(['vital']);
    expect(indexNuggetBank(a, 'A').weightedCount).toBe(4);
  });

  it('refuses claims and NOT/SUM nuggets, and lines it cannot read are reported, not fatal', () => {
    expect(() => indexNuggetBank({ title_query: 't', nugget_bank: { c: { claim: 'c' } } }, 'x.json')).toThrow(
      /claim nugget/,
    );
    expect(() =>
      indexNuggetBank(
        { title_query: 't', nugget_bank: { q: { question: 'q', aggregator_type: 'SUM' } } },
        'x.json',
      ),
    ).toThrow(/SUM/);
    const broken = parseJudgments(
      `${read('judgments.jsonl')}{"report": {"metadata": {"run_id": "r", "topic_id": "Z"}}, "judgments": [{"text": 1}]}\n{torn`,
      'j.jsonl',
    );
    expect(broken.reports).toHaveLength(3);
    expect(broken.problems.map((p) => p.where)).toEqual(['j.jsonl line 5', 'j.jsonl line 6']);
    expect(broken.problems[0]!.problem).toMatch(/sentence 1: field "text" is not a string/);
  });
});

describe("Auto-ARGUE's aggregation", () => {
  it('reproduces the TREC 2025 RAGTIME appendix figures of run hltime-lg.jina from its counts', () => {
    const c = counts({
      sentencesWithCitationsOrRequiring: 245,
      correctlyCitedSentences: 171,
      citations: 267,
      relevantCitations: 115,
      supportingCitations: 190,
      nuggets: 815,
      nuggetsWeighted: 815,
      correctNuggets: 268,
      correctNuggetsWeighted: 268,
    });
    const all = allValues([topicValues(c)]);
    expect(all.sentence_support_micro).toBe(171 / 245);
    expect(all.citation_relevance_micro).toBe(115 / 267);
    expect(all.citation_support_micro).toBe(190 / 267);
    expect(all.nugget_coverage_micro).toBe(268 / 815);
    expect(all.f1_micro!.toFixed(5)).toBe('0.44705');
  });

  it('writes zeros, not NaN, for empty denominators; f1_macro is the mean of per-topic F1', () => {
    const empty = topicValues(counts({ nuggets: 4, nuggetsWeighted: 4 }));
    expect(empty).toMatchObject({ citation_support: 0, sentence_support: 0, nugget_coverage: 0, f1: 0 });
    const t1 = topicValues(
      counts({
        sentencesWithCitationsOrRequiring: 2,
        correctlyCitedSentences: 2,
        nuggets: 2,
        correctNuggets: 1,
      }),
    );
    const t2 = topicValues(
      counts({
        sentencesWithCitationsOrRequiring: 4,
        correctlyCitedSentences: 1,
        nuggets: 2,
        correctNuggets: 2,
      }),
    );
    const all = allValues([t1, t2]);
    expect(all.f1_macro).toBe((t1.f1 + t2.f1) / 2);
    expect(all.f1_macro).not.toBe(all.f1_micro);
  });

  it('writes and reads the TSV layout (all rows first, topics in order, Python floats)', () => {
    const rows = argueRunRows('r', [
      { topicId: '10', counts: counts({ sentences: 1, nuggets: 1 }) },
      { topicId: '9', counts: counts({ sentences: 2, nuggets: 1 }) },
    ]);
    const text = formatArgueTsv(rows);
    expect(text.split('\n')[1]).toBe('r\tall\tsentences\t3.0');
    expect(rows.filter((r) => r.requestId !== 'all').map((r) => r.requestId)[0]).toBe('10'); // string order, as sorted() gives
    expect(parseArgueTsv(text, 's.tsv')).toEqual(rows);
    expect(() => parseArgueTsv('run_id\trequest_id\tmetric\tvalue\nr\tall\tf1\n', 's.tsv')).toThrow(
      /s\.tsv line 2 is not/,
    );
    expect(() => parseArgueTsv('a,b\n', 's.tsv')).toThrow(/not an ARGUE scores header/);
  });
});
