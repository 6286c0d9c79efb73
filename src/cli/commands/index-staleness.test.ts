import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const paper = (title: string, body: string) =>
  `# ${title}\n\n## Introduction\n\n${body}\n\n## Method\n\nWe train a classifier on labelled sentences and report accuracy on held-out data.\n`;

const row = JSON.stringify({
  row_id: 'r1',
  paper_id: 'alpha',
  question_type: 'lookup',
  question: 'What degrades perovskite solar cells?',
});
const answerArgs = [
  'answer',
  '--dataset',
  'data.jsonl',
  '--model',
  'extractive',
  '--context',
  'retrieval',
  '--out',
  'run.jsonl',
];

describe('index staleness (a paper re-ingested under the same id with other text)', () => {
  it('index rebuilds; search, retrieve and answer --context retrieval refuse a stale index until then', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-stale-'));
    writeFileSync(join(cwd, 'alpha.md'), paper('Alpha', 'Graphene membranes filter salt from seawater.'));
    writeFileSync(join(cwd, 'beta.md'), paper('Beta', 'Protein folding is predicted from sequence alone.'));
    expect((await run(cwd, ['ingest', 'alpha.md', 'beta.md'])).code).toBe(0);
    expect((await run(cwd, ['index'])).code).toBe(0);
    expect((await run(cwd, ['index'])).out).toMatch(/up to date .*content unchanged/);

    // Same file, same id, new text: the index must notice.
    writeFileSync(join(cwd, 'alpha.md'), paper('Alpha', 'Perovskite solar cells degrade under humidity.'));
    expect((await run(cwd, ['ingest', 'alpha.md'])).code).toBe(0);
    const search = await run(cwd, ['search', 'perovskite humidity']);
    expect(search.code).toBe(1);
    expect(search.err).toMatch(
      /INDEX_STALE[\s\S]*1 paper\(s\) changed since it was built \(alpha\)[\s\S]*citegeist index/,
    );
    writeFileSync(join(cwd, 'q.jsonl'), '{"id": "q1", "query": "perovskite"}\n');
    const retrieve = await run(cwd, ['retrieve', '--queries', 'q.jsonl', '--out', 'run.trec']);
    expect(retrieve.err).toMatch(/INDEX_STALE/);
    writeFileSync(join(cwd, 'data.jsonl'), `${row}\n`);
    const answer = await run(cwd, answerArgs);
    expect(answer.code).toBe(1);
    expect(answer.err).toMatch(/INDEX_STALE/);
    // With --context auto only papers too long for the model retrieve: the stale index is set
    // aside with a note (BM25 alone), not refused.
    const server = await new FakeOpenAiServer({
      replies: () => ({
        text: 'Humidity [^1].\n---EVIDENCE---\n@cite[1]\n"Perovskite solar cells degrade under humidity."\n---END-EVIDENCE---',
      }),
    }).start();
    try {
      const auto = await run(cwd, [
        'answer',
        '--dataset',
        'data.jsonl',
        '--model',
        `openai-compatible:${server.url}/v1#m`,
        '--out',
        'auto.jsonl',
      ]);
      expect(auto.code, auto.err).toBe(0);
      expect(auto.err).toMatch(
        /note: the index does not match the corpus \(1 paper\(s\) changed since it was built \(alpha\)\)/,
      );
    } finally {
      await server.close();
    }

    const rebuilt = await run(cwd, ['index']);
    expect(rebuilt.err).toMatch(/rebuilding the index: 1 paper\(s\) changed since it was built \(alpha\)/);
    const found = await run(cwd, ['search', 'perovskite humidity', '-k', '1']);
    expect(found.code, found.err).toBe(0);
    expect(found.out).toMatch(/alpha/);
    expect(found.out).toMatch(/Perovskite solar cells degrade under humidity/);
    const answered = await run(cwd, answerArgs);
    expect(answered.code, answered.err).toBe(0);
    expect(answered.err).not.toMatch(/note:/);
    expect(readFileSync(join(cwd, 'run.jsonl'), 'utf8')).toMatch(
      /Perovskite solar cells degrade under humidity/,
    );
  });

  it('answer without an index ranks by BM25 alone and says how to get the measured default', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-noindex-'));
    writeFileSync(join(cwd, 'alpha.md'), paper('Alpha', 'Perovskite solar cells degrade under humidity.'));
    expect((await run(cwd, ['ingest', 'alpha.md'])).code).toBe(0);
    writeFileSync(join(cwd, 'data.jsonl'), `${row}\n`);
    const answered = await run(cwd, answerArgs);
    expect(answered.code, answered.err).toBe(0);
    expect(
      answered.err.match(
        /note: the corpus has no index, so passages are ranked by BM25 alone; `citegeist index`/g,
      ),
    ).toHaveLength(1);
  });
});
