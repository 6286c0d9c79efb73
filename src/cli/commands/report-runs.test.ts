import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLock } from '../../io/index.js';
import { arbitraryReplies, FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const fixtures = join(import.meta.dirname, '..', '..', 'grade', 'argue', '__fixtures__');

/** A workspace with two requests, their nugget banks, three documents and two runs. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reports-cli-'));
  const requests = [
    {
      request_id: 'A',
      title: 'Drug A and blood pressure',
      problem_statement: 'How much does drug A lower blood pressure?',
      limit: 300,
    },
    {
      request_id: 'B',
      title: 'Crows in Vienna',
      problem_statement: 'Where do the crows live and how big are their flocks?',
      limit: 300,
    },
  ];
  writeFileSync(join(dir, 'requests.jsonl'), `${requests.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const docs = [
    { doc_id: 'd1', text: 'Drug A lowered blood pressure by 10 mmHg. The trial enrolled 120 patients.' },
    {
      doc_id: 'd2',
      text: 'The crows live in the zoo of Vienna. Flocks were smallest in the breeding season.',
    },
    { doc_id: 'd3', text: 'Unrelated text about weather and rain in spring.' },
  ];
  writeFileSync(join(dir, 'docs.jsonl'), `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);
  const bank = (id: string, nuggets: [string, string[]][]) => ({
    query_id: id,
    title_query: id,
    format_version: 'v3',
    nugget_bank: Object.fromEntries(
      nuggets.map(([q, a]) => [
        q,
        {
          question: q,
          answers: Object.fromEntries(a.map((x) => [x, { answer: x }])),
          aggregator_type: 'OR',
          query_id: id,
        },
      ]),
    ),
  });
  mkdirSync(join(dir, 'nuggets'));
  writeFileSync(
    join(dir, 'nuggets', 'nuggets-A.json'),
    JSON.stringify(
      bank('A', [
        ['By how much?', ['10 mmHg']],
        ['How many patients?', ['120 patients']],
      ]),
    ),
  );
  writeFileSync(
    join(dir, 'nuggets', 'nuggets-B.json'),
    JSON.stringify(
      bank('B', [
        ['Where?', ['Vienna']],
        ['When smallest?', ['breeding season']],
      ]),
    ),
  );
  const run = (runId: string, a: [string, string[]][], b: [string, string[]][]) =>
    [
      {
        metadata: { team_id: 'team', run_id: runId, topic_id: 'A' },
        responses: a.map(([text, citations]) => ({ text, citations })),
        references: ['d1', 'd3'],
      },
      {
        metadata: { team_id: 'team', run_id: runId, topic_id: 'B' },
        responses: b.map(([text, citations]) => ({ text, citations })),
        references: ['d2'],
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
  writeFileSync(
    join(dir, 'good.jsonl'),
    `${run(
      'good',
      [
        ['Drug A lowered blood pressure by 10 mmHg.', ['d1']],
        ['The trial enrolled 120 patients.', ['d1', 'd3']],
      ],
      [['The crows live in the zoo of Vienna.', ['d2']]],
    )}\n`,
  );
  writeFileSync(
    join(dir, 'weak.jsonl'),
    `${run('weak', [['Drug A is a drug.', ['d3']]], [['Crows are birds.', ['d2']]])}\n`,
  );
  return dir;
}

async function cli(dir: string, argv: string[], env: Record<string, string> = {}) {
  const { io, stdout, stderr } = memoryIo({ cwd: dir, env });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const scoreArgs = (judgments: string, out: string) => [
  'reports',
  'score',
  '--judgments',
  judgments,
  '--nuggets',
  'nuggets',
  '--out',
  out,
];
const judgeArgs = (run: string, out: string, judge = 'lexical') => [
  'reports',
  'judge',
  '--runs',
  run,
  '--nuggets',
  'nuggets',
  '--requests',
  'requests.jsonl',
  '--docs',
  'docs.jsonl',
  '--judge',
  judge,
  '--out',
  out,
];

describe('citegeist reports (validate → judge → score → compare)', () => {
  it('runs the whole evaluation offline with the lexical judge, resumes, and scores in the Auto-ARGUE TSV', async () => {
    const dir = workspace();
    const valid = await cli(dir, [
      'reports',
      'validate',
      'good.jsonl',
      '--requests',
      'requests.jsonl',
      '--docs',
      'docs.jsonl',
    ]);
    expect(valid.code).toBe(0);
    expect(valid.out).toMatch(/good\.jsonl: 2 reports, 0 errors, 0 warnings — valid/);

    const judged = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    expect(judged.code).toBe(0);
    expect(judged.out).toMatch(/judged 2 reports with lexical/);
    const lines = readFileSync(join(dir, 'j.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\{"report": \{"metadata": \{"team_id": "team", "run_id": "good", "topic_id": "A"\}/,
    ); // json.dumps style
    expect(JSON.parse(readFileSync(join(dir, 'j.jsonl.meta.json'), 'utf8'))).toMatchObject({
      method: 'argue-judge',
      length_mode: 'characters',
    });

    const again = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    expect(again.out).toMatch(/judged 0 reports .* \(2 already in j\.jsonl\)/);
    expect(readFileSync(join(dir, 'j.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);

    const scored = await cli(dir, [...scoreArgs('j.jsonl', 's.tsv'), '--iterations', '200']);
    expect(scored.code).toBe(0);
    expect(scored.out).toMatch(/run good: 2 topics/);
    expect(scored.out).toMatch(/nugget_coverage\s+0\.7500/);
    const tsv = readFileSync(join(dir, 's.tsv'), 'utf8').split('\n');
    expect(tsv[0]).toBe('run_id\trequest_id\tmetric\tvalue');
    expect(tsv).toContain('good\tall\tcorrect_nuggets\t3.0');
    expect(tsv).toContain('good\tA\tsupporting_citations\t2.0'); // d1 twice; d3 does not attest
    const meta = JSON.parse(readFileSync(join(dir, 's.tsv.meta.json'), 'utf8'));
    expect(meta.runs[0]).toMatchObject({ run_id: 'good', topics_scored: 2, failed_topics: [] });
    expect(Object.keys(meta.inputs_sha256)).toEqual(['j.jsonl', 'nuggets']);

    await cli(dir, judgeArgs('weak.jsonl', 'jw.jsonl'));
    await cli(dir, scoreArgs('jw.jsonl', 'w.tsv'));
    const compared = await cli(dir, [
      'reports',
      'compare',
      'w.tsv',
      's.tsv',
      '-m',
      'nugget_coverage',
      '--iterations',
      '100',
    ]);
    expect(compared.code).toBe(0);
    // The pairwise table `leaderboard` and `compare` print: Δ = A − B (weak − good) on 2 topics.
    expect(compared.out).toMatch(
      /pairwise comparisons: paired randomization test \(100 resamples, seed 42\)/,
    );
    expect(compared.out).toMatch(/weak vs good\s+-0\.750\s+\[.*\]\s+\S+\s+\S+\s+2\s+0\s/);
    expect(compared.out).toMatch(/best: good;/);

    // Both runs scored at once are compared topic by topic, with the figures `compare` gives on
    // the two TSVs (one paired module, one seed).
    const both = await cli(dir, ['--json', ...scoreArgs('j.jsonl', 'b.tsv'), '--judgments', 'jw.jsonl']);
    expect(both.code, both.err).toBe(0);
    const pairwise = JSON.parse(both.out).pairwise;
    const row = pairwise.rows.find((r: { metric: string }) => r.metric === 'nugget_coverage');
    expect(row).toMatchObject({ a: 'good', b: 'weak', comparison: { n: 2 } });
    expect(row.comparison.delta.estimate).toBeCloseTo(0.75, 12);
    const viaCompare = await cli(dir, ['--json', 'compare', 's.tsv', 'w.tsv']);
    expect(viaCompare.code, viaCompare.err).toBe(0);
    const same = JSON.parse(viaCompare.out).rows.find(
      (r: { metric: string }) => r.metric === 'nugget_coverage',
    );
    expect(same.comparison).toEqual(row.comparison);
    const text = await cli(dir, [...scoreArgs('j.jsonl', 'b.tsv'), '--judgments', 'jw.jsonl']);
    expect(text.out).toMatch(/runs compared topic by topic/);
    expect(text.out).toMatch(/good vs weak\s+\+0\.750/);
  });

  it('a cited id missing from the documents is a failed judgment: the topic is left out of the scores and the exit code is 1', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'docs.jsonl'),
      `${JSON.stringify({ doc_id: 'd1', text: 'Drug A lowered blood pressure by 10 mmHg.' })}\n`,
    );
    const judged = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    expect(judged.code).toBe(1);
    expect(judged.err).toMatch(/good\.jsonl line 1: 2 failed judgments/);
    const scored = await cli(dir, scoreArgs('j.jsonl', 's.tsv'));
    expect(scored.code).toBe(1);
    expect(scored.out).toMatch(/no topic could be scored/);
    expect(existsSync(join(dir, 's.tsv'))).toBe(true);
    expect(readFileSync(join(dir, 's.tsv'), 'utf8')).toBe('run_id\trequest_id\tmetric\tvalue\n');
    // Add the missing documents and rerun: exactly the reports with failures are judged again.
    writeFileSync(join(dir, 'docs.jsonl'), readFileSync(join(workspace(), 'docs.jsonl')));
    const retried = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    expect(retried.code).toBe(0);
    expect(retried.out).toMatch(/judged 2 reports .* \(0 already in j\.jsonl\); 0 failed judgments/);
    // The resume removed the lines with failures (a run file holds each report once), so nothing is superseded.
    expect(readFileSync(join(dir, 'j.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const rescored = await cli(dir, scoreArgs('j.jsonl', 's.tsv'));
    expect(rescored.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 's.tsv.meta.json'), 'utf8'))).toMatchObject({
      superseded_lines: 0,
    });
  });

  it('judgments are a run file: a second writer is refused (LOCK_HELD), a torn last line is judged again', async () => {
    const dir = workspace();
    expect((await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'))).code).toBe(0);
    const whole = readFileSync(join(dir, 'j.jsonl'), 'utf8');
    const [first, second] = whole.trim().split('\n');
    // A run killed while writing its second line.
    writeFileSync(join(dir, 'j.jsonl'), `${first}\n${second!.slice(0, 40)}`);
    const lock = FileLock.acquire(join(dir, 'j.jsonl'), 'another judge');
    const refused = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    lock.release();
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/LOCK_HELD/);
    const resumed = await cli(dir, judgeArgs('good.jsonl', 'j.jsonl'));
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(/judged 1 reports .* \(1 already in j\.jsonl\)/);
    expect(readFileSync(join(dir, 'j.jsonl'), 'utf8')).toBe(whole);
  }, 120_000);

  it('--dry-run with a model estimates calls, tokens and cost without calling it', async () => {
    const dir = workspace();
    const { code, out } = await cli(dir, [
      ...judgeArgs('good.jsonl', 'j.jsonl', 'openai:gpt-4.1-mini'),
      '--dry-run',
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /dry run: 2 reports, 3 sentences \(0 past the length limit\), 4 citations \(0 not in the documents\)/,
    );
    expect(out).toMatch(/openai:gpt-4\.1-mini: at most 10 calls/);
    expect(existsSync(join(dir, 'j.jsonl'))).toBe(false);
  });

  it('judges through an OpenAI-compatible server, every call cached', async () => {
    const dir = workspace();
    const server = await new FakeOpenAiServer({
      replies: (request) => {
        const system = request.messages[0]!.content;
        if (system.includes('cites'))
          return { text: '{"attested": true, "evidence_quote": "Drug A lowered blood pressure"}' };
        if (system.includes('relevant')) return { text: '{"relevant": true}' };
        return { text: '{"matches": [{"question": 1, "answers": [1]}]}' };
      },
    }).start();
    try {
      const judge = `openai-compatible:${server.url}/v1#judge-model`;
      const first = await cli(dir, [...judgeArgs('good.jsonl', 'j.jsonl', judge), '--concurrency', '2']);
      expect(first.code).toBe(0);
      const calls = server.requests.length;
      expect(calls).toBe(10); // 3 nugget matches + 4 attestations + 3 relevance (d1, d3 for A; d2 for B)
      const rerun = await cli(dir, [...judgeArgs('good.jsonl', 'j2.jsonl', judge)]);
      expect(rerun.code).toBe(0);
      expect(server.requests.length).toBe(calls); // all from the response cache
    } finally {
      await server.close();
    }
  });

  it('a judge answering schema-valid but arbitrary JSON shows no support: every attestation and nugget match is unverified, and scores 0', async () => {
    const dir = workspace();
    const server = await new FakeOpenAiServer({ replies: arbitraryReplies(11) }).start();
    type Line = {
      judgments: {
        judgments: {
          judgment_type_id: string;
          response: {
            is_attested?: boolean;
            grounding?: { status: string; counts: boolean } | null;
            matched_nuggets?: { grounding: { status: string; counts: boolean } }[];
          };
        }[];
      }[];
    };
    const claims = (file: string) => {
      const lines = readFileSync(join(dir, file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
      const judgments = lines.flatMap((l) => l.judgments.flatMap((s) => s.judgments));
      return {
        attested: judgments.filter((j) => j.response.is_attested === true).map((j) => j.response.grounding),
        notAttested: judgments.filter((j) => j.response.is_attested === false),
        // (a cited sentence's matches are recorded under each of its citations)
        matches: judgments.flatMap((j) => j.response.matched_nuggets ?? []).map((m) => m.grounding),
      };
    };
    const tsvValue = (file: string, metric: string) =>
      Number(
        readFileSync(join(dir, file), 'utf8')
          .split('\n')
          .find((l) => l.startsWith(`good\tall\t${metric}\t`))!
          .split('\t')[3],
      );
    try {
      const judge = `openai-compatible:${server.url}/v1#arbitrary`;
      const strict = await cli(dir, ['--json', ...judgeArgs('good.jsonl', 'j.jsonl', judge)]);
      expect(strict.code).toBe(0);
      // The progress line counts the judge's calls and the tokens the server reported for them.
      expect(strict.err).toMatch(
        new RegExp(
          `judge: 2/2 done, 0 failed, took \\d+s, ${server.requests.length} model calls, [1-9][\\d,]* tokens`,
        ),
      );
      const made = claims('j.jsonl');
      expect(made.attested.length).toBeGreaterThan(0);
      expect(made.matches.length).toBeGreaterThan(0);
      for (const g of [...made.attested, ...made.matches])
        expect(g).toMatchObject({ status: 'unverified', counts: false });
      const summary = JSON.parse(strict.out);
      expect(summary.trust_unlocated_evidence).toBe(false);
      expect(summary.evidence.attestations).toEqual([
        {
          judge: expect.stringMatching(/#arbitrary$/),
          claimed_support: made.attested.length,
          located: 0,
          unverified: made.attested.length,
        },
      ]);
      expect(summary.evidence.nugget_matches[0]).toMatchObject({ located: 0 });
      const scored = await cli(dir, scoreArgs('j.jsonl', 's.tsv'));
      expect(scored.code).toBe(0);
      expect(tsvValue('s.tsv', 'supporting_citations')).toBe(0);
      expect(tsvValue('s.tsv', 'correct_nuggets')).toBe(0);
      expect(scored.out).toMatch(
        new RegExp(
          `note: ${made.attested.length} attested citations left out: the judge's quote is missing or not found in the cited document`,
        ),
      );
      const meta = JSON.parse(readFileSync(join(dir, 's.tsv.meta.json'), 'utf8'));
      expect(meta.runs[0].supporting_citations_grounding).toEqual({
        located: 0,
        unverified: made.attested.length,
        trusted: 0,
        ungrounded: 0,
      });

      // The same replies (from the response cache) counted as the judge said them: the flag is a
      // setting of the judgments file, so another file.
      const refused = await cli(dir, [
        ...judgeArgs('good.jsonl', 'j.jsonl', judge),
        '--trust-unlocated-evidence',
      ]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/RUN_MANIFEST_MISMATCH/);
      const calls = server.requests.length;
      const trusted = await cli(dir, [
        ...judgeArgs('good.jsonl', 'jt.jsonl', judge),
        '--trust-unlocated-evidence',
      ]);
      expect(trusted.code).toBe(0);
      expect(server.requests.length).toBe(calls);
      expect(trusted.out).toMatch(
        /attestations unverified \(quote missing or not found in the cited document; counted as supported: --trust-unlocated-evidence\)/,
      );
      const kept = claims('jt.jsonl');
      for (const g of [...kept.attested, ...kept.matches])
        expect(g).toMatchObject({ status: 'unverified', counts: true });
      await cli(dir, scoreArgs('jt.jsonl', 't.tsv'));
      expect(tsvValue('t.tsv', 'supporting_citations')).toBe(made.attested.length);
      expect(tsvValue('t.tsv', 'citations')).toBe(made.attested.length + made.notAttested.length);
      expect(tsvValue('t.tsv', 'correct_nuggets')).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('scores nuggetizer assignments and meta-evaluates a ranking from TSVs', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'assign.jsonl'),
      `${JSON.stringify({
        qid: '1',
        query: 'q',
        nuggets: [
          { text: 'a', importance: 'vital', assignment: 'support' },
          { text: 'b', importance: 'okay', assignment: 'partial_support' },
        ],
      })}\n`,
    );
    const n = await cli(dir, [
      'reports',
      'nuggetizer-score',
      '--assignments',
      'assign.jsonl',
      '--out',
      'm.jsonl',
    ]);
    expect(n.out).toMatch(/1 answers: strict_vital 1\.0000, strict_all 0\.5000, vital 1\.0000, all 0\.7500/);
    expect(readFileSync(join(dir, 'm.jsonl'), 'utf8').split('\n')[1]).toBe(
      '{"qid": "all", "strict_vital_score": 1.0, "strict_all_score": 0.5, "vital_score": 1.0, "all_score": 0.75}',
    );

    cpSync(join(fixtures, 'expected.penalized.scores.tsv'), join(dir, 'one.tsv'));
    const ranking = await cli(dir, ['meta-eval', 'ranking', '--scores', 'one.tsv', '--reference', 'one.tsv']);
    expect(ranking.code).toBe(1);
    expect(ranking.err).toMatch(/NOTHING_IN_COMMON/);
  });
});
