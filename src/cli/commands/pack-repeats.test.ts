import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer, type FakeRequest } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function cli(dir: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd: dir, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

/** Two topics, a document and a one-question bank each, one run citing the document. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pack-argue-repeats-'));
  const topics = ['A', 'B'];
  const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  writeFileSync(
    join(dir, 'requests.jsonl'),
    jsonl(topics.map((t) => ({ request_id: t, title: t, problem_statement: `What of ${t}?`, limit: 500 }))),
  );
  writeFileSync(
    join(dir, 'docs.jsonl'),
    jsonl(topics.map((t) => ({ doc_id: `d${t}`, text: `${t} is alpha.` }))),
  );
  mkdirSync(join(dir, 'nuggets'));
  for (const t of topics) {
    const question = `What is ${t}?`;
    writeFileSync(
      join(dir, 'nuggets', `nuggets-${t}.json`),
      JSON.stringify({
        query_id: t,
        title_query: t,
        format_version: 'v3',
        nugget_bank: {
          [question]: {
            question,
            answers: { alpha: { answer: 'alpha' } },
            aggregator_type: 'OR',
            query_id: t,
          },
        },
      }),
    );
  }
  writeFileSync(
    join(dir, 'run.jsonl'),
    jsonl(
      topics.map((t) => ({
        metadata: { team_id: 'team', run_id: 'r', topic_id: t },
        responses: [{ text: `${t} is alpha.`, citations: [`d${t}`] }],
        references: [`d${t}`],
      })),
    ),
  );
  return dir;
}

/** A judge whose verdicts depend on the request's seed: repeat 0 attests and matches, repeat 1 does not. */
function seededJudge(request: FakeRequest) {
  const system = request.messages[0]?.content ?? '';
  const yes = Number(request.body.seed ?? 0) % 2 === 0;
  if (system.includes('relevant to a report request')) return { text: '{"relevant": true}' };
  if (system.includes('supported by the document it cites'))
    return {
      text: JSON.stringify(
        yes
          ? { attested: true, evidence_quote: null, rationale: 'seeded' }
          : { attested: false, evidence_quote: null, rationale: 'seeded' },
      ),
    };
  return {
    text: JSON.stringify({ matches: yes ? [{ question: 1, answers: [1], sentence_quote: null }] : [] }),
  };
}

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('pack: outputs judged K times (--repeats K)', () => {
  it('replays the K repeats from the packed replies, byte for byte', async () => {
    const dir = workspace();
    server = await new FakeOpenAiServer({ replies: seededJudge }).start();
    const judge = `openai-compatible:${server.url}/v1#argue-judge`;
    const judged = await cli(dir, [
      ...['reports', 'judge', '--runs', 'run.jsonl', '--nuggets', 'nuggets', '--requests', 'requests.jsonl'],
      ...['--docs', 'docs.jsonl', '--judge', judge, '--repeats', '2', '--out', 'j.jsonl'],
    ]);
    expect(judged.code, judged.err).toBe(0);
    expect(readFileSync(join(dir, 'j.jsonl.meta.json'), 'utf8')).toMatch(/"judge_repeats": 2/);
    const pack = await cli(dir, ['pack', '--include', 'j.jsonl', '--out', 'study.cgpack']);
    expect(pack.out).toMatch(/2 of 2 outputs identical/);
    expect(pack.code, pack.out + pack.err).toBe(0);
    await server.close();
    server = undefined;
    const elsewhere = mkdtempSync(join(tmpdir(), 'pack-argue-repeats-replay-'));
    const replay = await cli(elsewhere, ['replay', join(dir, 'study.cgpack'), '--dir', 'r']);
    expect(replay.out).toMatch(/2 of 2 outputs identical/);
    expect(replay.code, replay.out + replay.err).toBe(0);
  }, 60_000);

  it('replays grades made with grade --repeats K from the packed replies, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pack-grade-repeats-'));
    const quote = 'We collected 1,204 survey responses.';
    mkdirSync(join(dir, 'papers'));
    writeFileSync(join(dir, 'papers', 'p1.md'), `# Paper\n\n## Methods\n\n${quote}\n`);
    const row = {
      row_id: 'p1_lookup',
      paper_id: 'p1',
      domain: 'education',
      question_type: 'lookup',
      question: 'How many responses?',
      expected_answer: '1,204',
      expected_references: [{ section_label: 'Methods', alternatives: [quote] }],
    };
    writeFileSync(join(dir, 'dataset.jsonl'), `${JSON.stringify(row)}\n`);
    const answer = {
      row_id: 'p1_lookup',
      model: 'm',
      answer: '1,204 [^1]',
      citations: [{ key: '1', quote }],
    };
    writeFileSync(join(dir, 'run.jsonl'), `${JSON.stringify(answer)}\n`);
    // The score depends on the request's seed, so the repeats differ.
    server = await new FakeOpenAiServer({
      replies: (request) => ({
        text: JSON.stringify({
          factual_accuracy: 2 + (Number(request.body.seed ?? 0) % 3),
          completeness: 4,
          justification: 'seeded',
          evidence: [],
        }),
      }),
    }).start();
    const graded = await cli(dir, [
      ...['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'run.jsonl'],
      ...['--judge', `openai-compatible:${server.url}/v1#judge`, '--repeats', '3', '--out', 'g.jsonl'],
    ]);
    expect(graded.code, graded.err).toBe(0);
    expect(readFileSync(join(dir, 'g.jsonl'), 'utf8').split('\n')[0]).toMatch(/"judge_repeats":3/);
    const pack = await cli(dir, ['pack', '--include', 'g.jsonl', '--out', 'study.cgpack']);
    expect(pack.out).toMatch(/3 model replies/);
    expect(pack.out).toMatch(/2 of 2 outputs identical/);
    expect(pack.code, pack.out + pack.err).toBe(0);
    await server.close();
    server = undefined;
    const elsewhere = mkdtempSync(join(tmpdir(), 'pack-grade-repeats-replay-'));
    const replay = await cli(elsewhere, ['replay', join(dir, 'study.cgpack'), '--dir', 'r']);
    expect(replay.out).toMatch(/2 of 2 outputs identical/);
    expect(replay.code, replay.out + replay.err).toBe(0);
  }, 60_000);
});
