import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringifyPythonJson } from '../python-compat/python-json.js';
import { sharedDataPath, skipWithoutSharedData } from '../testing/index.js';
import {
  codePointLength,
  nfkcLength,
  pythonWordCount,
  reportLength,
  sentencesWithinLimit,
} from './report-length.js';
import { parseRequests, requestText } from './report-request.js';
import { parseReport, parseReportRun, toRagtimeLine } from './report-run.js';

// The two example runs of the rag-run-validator README (hltcoe/rag-run-validator @ 09b8190b).
const dictRun = {
  metadata: { team_id: 'my_fantastic_team', run_id: 'my_best_run_02', topic_id: '101' },
  responses: [
    { text: 'Sky is blue.', citations: { docid001: 0.3, docid003: 0.1 } },
    { text: 'The moon is made out of blue cheese.', citations: { docid002: 0.7 } },
    { text: 'This is all.', citations: {} },
  ],
  references: ['docid0001', 'docid0002', 'docid0003'],
};

describe('report runs', () => {
  it('reads the rag-run-validator layout with {doc: score} or [doc] citations', () => {
    const r = parseReport(dictRun, 'run.jsonl line 1');
    expect(r).toMatchObject({
      format: 'ragtime',
      runId: 'my_best_run_02',
      teamId: 'my_fantastic_team',
      topicId: '101',
    });
    expect(r.sentences[0]).toEqual({
      text: 'Sky is blue.',
      citations: ['docid001', 'docid003'],
      scores: [0.3, 0.1],
    });
    const listRun = { ...dictRun, responses: [{ text: 'Sky is blue.', citations: ['docid001'] }] };
    expect(parseReport(listRun, 'x').sentences[0]!.scores).toBeNull();
  });

  it('reads NeuCLIR 2024 sentence runs (run id from the file when absent) and TREC RAG 2024 answers', () => {
    const neuclir = parseReport(
      {
        request_id: 300,
        sentences: [
          { text: 'A.', citations: ['d1'] },
          { text: 'B.', citations: [] },
        ],
      },
      'x',
      'my-run',
    );
    expect(neuclir).toMatchObject({
      format: 'neuclir-2024',
      runId: 'my-run',
      topicId: '300',
      references: ['d1'],
    });
    const rag = parseReport(
      {
        run_id: 'r',
        topic_id: '2024-1',
        topic: 'q',
        references: ['m1', 'm2'],
        response_length: 4,
        answer: [{ text: 'X.', citations: [1, 0] }],
      },
      'x',
    );
    expect(rag.sentences[0]!.citations).toEqual(['m2', 'm1']);
    expect(() =>
      parseReport(
        { run_id: 'r', topic_id: '1', references: [], answer: [{ text: 'X', citations: [2] }] },
        'run line 4',
      ),
    ).toThrow(/run line 4 is not a valid report: answer\[0\] cites index 2/);
    // As a RAGTIME line, unknown fields of other layouts are not invented.
    expect(toRagtimeLine(rag)).toEqual({
      metadata: { team_id: 'r', run_id: 'r', topic_id: '2024-1' },
      responses: [{ text: 'X.', citations: ['m2', 'm1'] }],
      references: ['m1', 'm2'],
    });
  });

  it('reads a run line by line: a bad line is reported with its number, the others kept; lines write back equal', () => {
    const lines = [
      stringifyPythonJson(dictRun),
      '{"metadata": {}}',
      'nope',
      stringifyPythonJson({ ...dictRun, metadata: { ...dictRun.metadata, topic_id: '102' }, extra: [1.0] }),
    ];
    const read = parseReportRun(`${lines.join('\n')}\n`, 'run.jsonl');
    expect(read.reports.map((r) => r.topicId)).toEqual(['101', '102']);
    expect(read.problems.map((p) => p.line)).toEqual([2, 3]);
    expect(read.problems[0]!.problem).toMatch(/run\.jsonl line 2 is not a valid report/);
    expect(read.reports.map((r) => stringifyPythonJson(toRagtimeLine(r)))).toEqual([lines[0], lines[3]]);
  });

  it('keeps the written order of citation dictionaries with numeric-looking doc ids', () => {
    const [r] = parseReportRun(
      '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "x", "citations": {"99": 10.0, "12": 90.0}}], "references": ["99", "12"]}',
      'f',
    ).reports;
    expect(r!.sentences[0]!.citations).toEqual(['99', '12']);
    expect(r!.sentences[0]!.scores).toEqual([10, 90]);
  });

  const mini = sharedDataPath('reports', 'mini-test.report-sentences.json');
  it('reads the real NeuCLIR 2024 reports of three teams as sentence runs (../shared/data/reports)', (ctx) => {
    skipWithoutSharedData(
      ['reports', 'mini-test.report-sentences.json'],
      ['reports', 'mini-test.citation-to-sentences.json'],
    )(ctx);
    const sentences = JSON.parse(readFileSync(mini, 'utf8')) as Record<
      string,
      Record<string, Record<string, string>>
    >;
    const byDoc = JSON.parse(
      readFileSync(sharedDataPath('reports', 'mini-test.citation-to-sentences.json'), 'utf8'),
    ) as Record<string, Record<string, Record<string, Record<string, string>>>>;
    let reports = 0;
    for (const [topic, runs] of Object.entries(sentences)) {
      for (const [run, sents] of Object.entries(runs)) {
        const cites = (i: string) =>
          Object.entries(byDoc[topic] ?? {})
            .filter(([, r]) => r[run]?.[i] !== undefined)
            .map(([d]) => d);
        const line = {
          request_id: topic,
          run_id: run,
          sentences: Object.entries(sents).map(([i, text]) => ({ text, citations: cites(i) })),
        };
        const r = parseReport(line, `${topic}/${run}`);
        expect(r.sentences.length).toBe(Object.keys(sents).length);
        expect(toRagtimeLine(r).references).toEqual(r.references);
        reports++;
      }
    }
    expect(reports).toBe(177);
  });
});

describe('requests', () => {
  it('reads RAGTIME/NeuCLIR requests, the published "backround" typo and rag-run-validator topic_id', () => {
    const text = [
      '{"request_id": "300", "title": "T", "backround": "B", "problem_statement": "P", "limit": 2000}',
      '{"topic_id": 301, "background": "B2"}',
    ].join('\n');
    const requests = parseRequests(text, 'q.jsonl');
    expect(requests.get('300')).toMatchObject({
      title: 'T',
      background: 'B',
      problemStatement: 'P',
      limit: 2000,
    });
    expect(requests.get('301')).toMatchObject({ background: 'B2', limit: null });
    expect(requestText(requests.get('300')!)).toBe('T\nP\nB');
    expect(() => parseRequests('{"title": "x"}', 'q.jsonl')).toThrow(/q\.jsonl line 1 has no request id/);
    expect(() => parseRequests(`${text}\n{"request_id": "300"}`, 'q.jsonl')).toThrow(
      /Request "300" appears twice: q\.jsonl line 1 and q\.jsonl line 3/,
    );
    expect(() => parseRequests('{"request_id": "1", "limit": -3}', 'q.jsonl')).toThrow(/field "limit"/);
  });

  const requests = sharedDataPath('reports', 'neuclir24-test-zho.requests.jsonl');
  it('reads the NeuCLIR 2024 Chinese requests (../shared/data/reports)', (ctx) => {
    skipWithoutSharedData(['reports', 'neuclir24-test-zho.requests.jsonl'])(ctx);
    const read = parseRequests(readFileSync(requests, 'utf8'), requests);
    expect(read.size).toBe(59);
    expect(read.get('300')!.limit).toBe(2000);
  });
});

describe('report length (rag-run-validator validate_length)', () => {
  it('counts NFKC code points of the joined text, or Python words', () => {
    expect(nfkcLength('ﬁ')).toBe(2); // the ligature decomposes under NFKC
    expect(codePointLength('😀a')).toBe(2);
    expect(pythonWordCount(' a\u00a0b\u3000c\ufeffd ')).toBe(3); // U+FEFF is not whitespace in Python
    expect(reportLength(['ab', 'cd'], 'characters')).toBe(5);
    expect(reportLength(['two words', 'three more words'], 'words')).toBe(5);
  });

  it.each([
    [['aaaa', 'bbbb', 'cc'], 9, 'characters', 2],
    [['aaaa', 'bbbb', 'cc'], 8, 'characters', 1],
    [['aaaa', 'bbbb', 'cc'], 12, 'characters', 3],
    [['one two', 'three', 'four five'], 3, 'words', 2],
    [['toolong'], 3, 'characters', 0],
  ] as const)('%j within %i %s keeps %i sentences', (texts, limit, mode, kept) => {
    const n = sentencesWithinLimit(texts, limit, mode);
    expect(n).toBe(kept);
    expect(reportLength(texts.slice(0, n), mode)).toBeLessThanOrEqual(limit);
  });
});
