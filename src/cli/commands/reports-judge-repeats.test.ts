import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArgueJudgeNoise } from '../../grade/index.js';
import { formatPythonFloat } from '../../python-compat/index.js';
import { createRandom, judgeVariance } from '../../stats/index.js';
import { FakeOpenAiServer, type FakeRequest } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const TOPICS = Array.from({ length: 10 }, (_, i) => `T${String(i).padStart(2, '0')}`);

/** Ten topics, each with one document and a one-question bank; runs `strong` and `weak` cite it once. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reports-repeats-'));
  const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  writeFileSync(
    join(dir, 'requests.jsonl'),
    jsonl(
      TOPICS.map((t) => ({
        request_id: t,
        title: `Topic ${t}`,
        problem_statement: `What of ${t}?`,
        limit: 500,
      })),
    ),
  );
  writeFileSync(
    join(dir, 'docs.jsonl'),
    jsonl(
      TOPICS.map((t) => ({ doc_id: `d${t}`, text: `Fact ${t} is about alpha. Fact ${t} is about beta.` })),
    ),
  );
  mkdirSync(join(dir, 'nuggets'));
  for (const t of TOPICS) {
    const bank = {
      query_id: t,
      title_query: t,
      format_version: 'v3',
      nugget_bank: {
        [`What is ${t} about?`]: {
          question: `What is ${t} about?`,
          answers: { alpha: { answer: 'alpha' } },
          aggregator_type: 'OR',
          query_id: t,
        },
      },
    };
    writeFileSync(join(dir, 'nuggets', `nuggets-${t}.json`), JSON.stringify(bank));
  }
  const run = (runId: string, word: string) =>
    jsonl(
      TOPICS.map((t) => ({
        metadata: { team_id: 'team', run_id: runId, topic_id: t },
        responses: [{ text: `Fact ${t} is about ${word}.`, citations: [`d${t}`] }],
        references: [`d${t}`],
      })),
    );
  writeFileSync(join(dir, 'strong.jsonl'), run('strong', 'alpha'));
  writeFileSync(join(dir, 'weak.jsonl'), run('weak', 'beta'));
  return dir;
}

const between = (text: string, tag: string) =>
  new RegExp(`<${tag}[^>]*>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text)?.[1] ?? '';

/** FNV-1a: the fake judge's draw depends on the question and the request seed, not on call order. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/**
 * A seeded noisy ARGUE judge: a sentence about "alpha" is attested with probability 0.85 and
 * matches its nugget with 0.8, one about "beta" 0.35 and 0.2; every document is relevant. Each
 * draw is seeded by the prompt and the request's seed, so repeats (seeds 0, 1, 2) disagree and
 * a rerun gets the same answers. `fail` makes chosen calls reply with text that is not JSON.
 */
function noisyJudge(fail: (request: FakeRequest) => boolean = () => false) {
  return (request: FakeRequest) => {
    if (fail(request)) return { text: 'I cannot judge this.' };
    const system = request.messages[0]?.content ?? '';
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const draw = createRandom(hash(`${user}\u0000${String(request.body.seed)}`))();
    const sentence = between(user, 'sentence');
    const alpha = sentence.includes('alpha');
    if (system.includes('relevant to a report request')) return { text: '{"relevant": true}' };
    if (system.includes('supported by the document it cites')) {
      return {
        text: JSON.stringify(
          draw < (alpha ? 0.85 : 0.35)
            ? { attested: true, evidence_quote: sentence.replace(/\.$/, ''), rationale: 'noisy' }
            : { attested: false, evidence_quote: null, rationale: 'noisy' },
        ),
      };
    }
    const match = draw < (alpha ? 0.8 : 0.2);
    return {
      text: JSON.stringify({
        matches: match ? [{ question: 1, answers: [1], sentence_quote: sentence.replace(/\.$/, '') }] : [],
      }),
    };
  };
}

async function cli(dir: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd: dir, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const judgeArgs = (judge: string, out: string, repeats: number) => [
  'reports',
  'judge',
  '--runs',
  'strong.jsonl',
  '--runs',
  'weak.jsonl',
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
  // One report at a time: the relevance question of a topic is the same for both runs, and the
  // second asking must find the first in the response cache for the call counts below.
  '--concurrency',
  '1',
  ...(repeats > 1 ? ['--repeats', String(repeats)] : []),
];

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** Per line, the attestation verdict (1/0) of its one citation in each repeat, read from the file. */
function attestedPerRepeat(line: {
  judgments: { judgments: { judgment_type_id: string; response: { is_attested?: boolean } }[] }[];
  citegeist: {
    repeat_judgments: { judgments: { judgment_type_id: string; response: { is_attested?: boolean } }[] }[][];
  };
}): number[] {
  const of = (js: { judgment_type_id: string; response: { is_attested?: boolean } }[]) =>
    js.find((j) => j.judgment_type_id === 'SENTENCE_ATTESTED')!.response.is_attested ? 1 : 0;
  return [
    of(line.judgments[0]!.judgments),
    ...line.citegeist.repeat_judgments.map((r) => of(r[0]!.judgments)),
  ];
}

describe('reports judge --repeats K: the ARGUE judge judged K times, and its noise in reports score', () => {
  it('judges every report K times with seeds 0..K-1, keeps every repeat, resumes with the same K, refuses another, and counts K× calls in --dry-run', async () => {
    const dir = workspace();
    const server = await new FakeOpenAiServer({ replies: noisyJudge() }).start();
    try {
      const judge = `openai-compatible:${server.url}/v1#noisy`;
      const dry = await cli(dir, ['--json', ...judgeArgs(judge, 'j3.jsonl', 3), '--dry-run']);
      expect(dry.code, dry.err).toBe(0);
      // 20 reports × (nugget match + attestation + relevance) × 3 repeats.
      expect(JSON.parse(dry.out)).toMatchObject({ reports: 20, repeats: 3, calls: 180 });
      const dryText = await cli(dir, [...judgeArgs(judge, 'j3.jsonl', 3), '--dry-run']);
      expect(dryText.out).toMatch(/at most 180 calls \(60 per repeat × 3 repeats; uncited sentences/);
      expect(server.requests).toHaveLength(0);

      const once = await cli(dir, judgeArgs(judge, 'j1.jsonl', 1));
      expect(once.code, once.err).toBe(0);
      // 20 nugget matches + 20 attestations + 10 relevance (the other 10 from the cache).
      expect(server.requests).toHaveLength(50);
      // Judged once: no seed is sent (the cache keys of a judging without --repeats), no repeats written.
      expect(server.requests.every((r) => r.body.seed === undefined)).toBe(true);
      expect(lines(join(dir, 'j1.jsonl')).every((l) => l.citegeist.repeats === undefined)).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'j1.jsonl.meta.json'), 'utf8')).settings.judge_repeats).toBe(
        undefined,
      );

      const thrice = await cli(dir, judgeArgs(judge, 'j3.jsonl', 3));
      expect(thrice.code, thrice.err).toBe(0);
      expect(thrice.out).toMatch(/judged 20 reports with \S+ 3 times each \(0 already in j3\.jsonl\)/);
      const calls = server.requests.slice(50);
      expect(calls).toHaveLength(150);
      for (const seed of [0, 1, 2]) expect(calls.filter((r) => r.body.seed === seed)).toHaveLength(50);
      const judged = lines(join(dir, 'j3.jsonl'));
      expect(judged).toHaveLength(20);
      for (const l of judged) {
        expect(l.citegeist.repeats).toBe(3);
        expect(l.citegeist.repeat_judgments).toHaveLength(2);
        expect(l.citegeist.failed).toBe(0);
      }
      const meta = JSON.parse(readFileSync(join(dir, 'j3.jsonl.meta.json'), 'utf8'));
      expect(meta.settings).toMatchObject({ judge_repeats: 3, judge_temperature: 0 });
      // The repeats disagree somewhere (the judge is noisy), so they really are separate calls.
      expect(judged.some((l) => new Set(attestedPerRepeat(l)).size > 1)).toBe(true);

      const resumed = await cli(dir, judgeArgs(judge, 'j3.jsonl', 3));
      expect(resumed.code, resumed.err).toBe(0);
      expect(resumed.out).toMatch(/judged 0 reports .*\(20 already in j3\.jsonl\)/);
      expect(server.requests).toHaveLength(200);

      const other = await cli(dir, judgeArgs(judge, 'j3.jsonl', 2));
      expect(other.code).not.toBe(0);
      expect(other.err).toContain('RUN_MANIFEST_MISMATCH');
      expect(other.err).toContain('judge_repeats');
      expect(server.requests).toHaveLength(200);

      const lexical = await cli(dir, judgeArgs('lexical', 'jl.jsonl', 3));
      expect(lexical.code).not.toBe(0);
      expect(lexical.err).toContain('BAD_OPTION');
    } finally {
      await server.close();
    }
  }, 120_000);

  it('reports score: topic values are the mean over repeats, and the judge noise comes from judgeVariance and rank stability', async () => {
    const dir = workspace();
    const server = await new FakeOpenAiServer({ replies: noisyJudge() }).start();
    try {
      const judge = `openai-compatible:${server.url}/v1#noisy`;
      expect((await cli(dir, judgeArgs(judge, 'j3.jsonl', 3))).code).toBe(0);
      const judged = lines(join(dir, 'j3.jsonl'));
      const scoreArgs = [
        'reports',
        'score',
        '--judgments',
        'j3.jsonl',
        '--nuggets',
        'nuggets',
        '--out',
        's.tsv',
      ];
      const json = await cli(dir, ['--json', ...scoreArgs, '--resamples', '2000']);
      expect(json.code, json.err).toBe(0);
      const noise = JSON.parse(json.out).judge_noise as ArgueJudgeNoise;
      expect(noise.repeats).toBe(3);

      // Per run, the attestation verdicts read from the file: each topic's citation_support per
      // repeat is its one citation's verdict (every quote is in the document).
      for (const run of ['strong', 'weak']) {
        const perTopic = judged.filter((l) => l.report.metadata.run_id === run).map(attestedPerRepeat);
        const expected = judgeVariance(perTopic);
        const topic = noise.topics.find((t) => t.label === run && t.metric === 'citation_support')!;
        expect(topic).toMatchObject({ items: 10, repeats: 3 });
        expect(topic.verdictChangeShare).toBe(expected.verdictChangeShare);
        expect(topic.withinItemSd).toBeCloseTo(expected.withinItemSd!, 12);
        const single = noise.judgments.find(
          (j) => j.label === run && j.judgment_type === 'SENTENCE_ATTESTED',
        )!;
        expect(single.items).toBe(10);
        expect(single.verdictChangeShare).toBe(expected.verdictChangeShare);
        // Relevance is always yes: the judge never changed it.
        const relevance = noise.judgments.find(
          (j) => j.label === run && j.judgment_type === 'CITED_DOCUMENT_RELEVANCE',
        )!;
        expect(relevance.verdictChangeShare).toBe(0);
        // The TSV holds the mean over the repeats.
        const tsv = readFileSync(join(dir, 's.tsv'), 'utf8');
        perTopic.forEach((k, i) => {
          const mean = (k[0]! + k[1]! + k[2]!) / 3;
          expect(tsv).toContain(
            `${run}\tT${String(i).padStart(2, '0')}\tcitation_support\t${formatPythonFloat(mean)}\n`,
          );
        });
      }
      expect(
        noise.topics.find((t) => t.label === 'strong' && t.metric === 'citation_support')!.verdictChangeShare,
      ).toBeGreaterThan(0);

      const stability = noise.comparison.find((c) => c.metric === 'citation_support')!.stability;
      expect(stability.items).toBe(10);
      expect(stability.systems.map((s) => [s.label, s.rank])).toEqual([
        ['strong', 1],
        ['weak', 2],
      ]);
      const [pair] = stability.pairs;
      expect(pair!.dependsOnJudge).toBe(pair!.significantShare > 0.05 && pair!.significantShare < 0.95);
      // The figures docs/reports.md quotes (the draws are seeded by prompt and request seed).
      expect(
        noise.topics.filter((t) => t.metric === 'citation_support').map((t) => t.verdictChangeShare),
      ).toEqual([0.4, 0.7]);
      expect(pair!.significantShare).toBe(0.721);
      expect(pair!.dependsOnJudge).toBe(true);

      const text = await cli(dir, scoreArgs);
      expect(text.code, text.err).toBe(0);
      expect(text.out).toContain('ARGUE judge noise (each report judged 3 times)');
      expect(text.out).toMatch(
        /judge noise on citation_support \(each item judged 3 times; 1,000 resamples, seed 42, 10 shared items\)/,
      );
      expect(text.out).toMatch(/strong vs weak: significant \(t-test\) in \d+\.\d% of redraws — /);
      expect(text.out).toMatch(
        /SENTENCE_ATTESTED \(weak\): verdict changed between repeats on \d+\.\d% of 10 judgments/,
      );
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a judge failure in one repeat is a failed judgment: the topic is left out of the scores, never scored 0', async () => {
    const dir = workspace();
    // Topic T03's attestation fails in repeat 3 (seed 2) of run strong; everything else answers.
    const fails = (r: FakeRequest) =>
      r.body.seed === 2 &&
      (r.messages[0]?.content ?? '').includes('supported by the document it cites') &&
      r.messages.some(
        (m) => m.role === 'user' && between(m.content, 'sentence') === 'Fact T03 is about alpha.',
      );
    const server = await new FakeOpenAiServer({ replies: noisyJudge(fails) }).start();
    try {
      const judge = `openai-compatible:${server.url}/v1#noisy`;
      const first = await cli(dir, judgeArgs(judge, 'j3.jsonl', 3));
      expect(first.code, first.out + first.err).toBe(1);
      const bad = lines(join(dir, 'j3.jsonl')).find(
        (l) => l.report.metadata.run_id === 'strong' && l.report.metadata.topic_id === 'T03',
      );
      expect(bad.citegeist.failed).toBe(1);
      expect(bad.judgments[0].failed_judgments).toBeUndefined();
      expect(bad.citegeist.repeat_judgments[1][0].failed_judgments[0].judgment_type_id).toBe(
        'SENTENCE_ATTESTED',
      );

      const scored = await cli(dir, [
        '--json',
        'reports',
        'score',
        '--judgments',
        'j3.jsonl',
        '--nuggets',
        'nuggets',
        '--out',
        's.tsv',
      ]);
      expect(scored.code).toBe(1);
      expect(scored.err).toContain('JUDGE_FAILED');
      const out = JSON.parse(scored.out);
      expect(out.meta.runs.find((r: { run_id: string }) => r.run_id === 'strong').failed_topics).toEqual([
        expect.objectContaining({ topicId: 'T03', failed: 1 }),
      ]);
      expect(readFileSync(join(dir, 's.tsv'), 'utf8')).not.toMatch(/^strong\tT03\t/m);
      const noise = out.judge_noise as ArgueJudgeNoise;
      expect(noise.topics.find((t) => t.label === 'strong' && t.metric === 'f1')!.items).toBe(9);
      expect(noise.topics.find((t) => t.label === 'weak' && t.metric === 'f1')!.items).toBe(10);
    } finally {
      await server.close();
    }
  }, 120_000);
});
