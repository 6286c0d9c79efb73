import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRecords } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe('export passages → another engine → answer --retrieved run.trec (issue 30)', () => {
  it('round-trips passage and paper ids, and refuses unknown ids with a count', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-retrieved-'));
    mkdirSync(join(cwd, 'papers'));
    writeFileSync(
      join(cwd, 'papers', 'p1.md'),
      '# A study\n\n## Methods\n\nWe collected 1,204 survey responses from teachers in three districts.\n\n## Results\n\nMost teachers preferred shorter lessons.\n',
    );
    writeFileSync(
      join(cwd, 'papers', 'p2.md'),
      '# Another\n\n## Intro\n\nA paper about bees and their dances.\n',
    );
    expect((await run(cwd, ['ingest', 'papers'])).code).toBe(0);
    expect((await run(cwd, ['index', '--no-dense'])).code).toBe(0);
    const exported = await run(cwd, ['export', 'passages', '--format', 'pyserini']);
    expect(exported.code, exported.err).toBe(0);
    const docs = exported.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; contents: string; paper_id: string });
    expect(docs.map((d) => d.id).sort()).toEqual(['p1#0', 'p1#1', 'p2#0']);
    // What another engine would return for row r1: a passage id, then a paper id.
    writeFileSync(join(cwd, 'run.trec'), 'r1 Q0 p1#1 1 9.5 other\nr1 Q0 p2 2 3.0 other\n');
    const row = {
      row_id: 'r1',
      paper_id: 'p1',
      question_type: 'lookup',
      question: 'How many survey responses were collected?',
      expected_answer: '1,204 responses',
    };
    writeFileSync(join(cwd, 'd.jsonl'), `${JSON.stringify(row)}\n`);
    const answer = [
      'answer',
      '--dataset',
      'd.jsonl',
      '--model',
      'extractive',
      '--free-text',
      '--out',
      'a.jsonl',
    ];
    const answered = await run(cwd, [...answer, '--retrieved', 'run.trec']);
    expect(answered.code, answered.err).toBe(0);
    const out = runRecords(join(cwd, 'a.jsonl'));
    // The run did not give the Methods passage that BM25 would rank first: no answer from it.
    expect(String(out.rows[0]?.answer)).not.toMatch(/1,204/);
    expect(JSON.stringify(out.manifest)).toContain('run:other');
    writeFileSync(join(cwd, 'good.trec'), 'r1 Q0 p2 1 4 other\nr1 Q0 p1#0 2 3.5 other\n');
    expect((await run(cwd, [...answer.slice(0, -1), 'g.jsonl', '--retrieved', 'good.trec'])).code).toBe(0);
    expect(String(runRecords(join(cwd, 'g.jsonl')).rows[0]?.answer)).toMatch(/1,204 survey responses/);
    // qa-grid: the run is one more row of the grid, beside citegeist's own BM25.
    const grid = await run(cwd, [
      'qa-grid',
      '--dataset',
      'd.jsonl',
      '--modes',
      'bm25',
      '--baseline-mode',
      'bm25',
      '--models',
      'extractive',
      '--retrieved',
      'good.trec',
      '--out-dir',
      'grid',
    ]);
    expect(grid.code, grid.err).toBe(0);
    const summary = JSON.parse(readFileSync(join(cwd, 'grid', 'grid.summary.json'), 'utf8')) as {
      settings: { modes: string[] };
    };
    expect(summary.settings.modes).toEqual(['bm25', 'retrieved']);
    writeFileSync(join(cwd, 'bad.trec'), 'r1 Q0 p1#7 1 2 x\nr1 Q0 nope 2 1 x\nr1 Q0 p1#0 3 0.5 x\n');
    const refused = await run(cwd, [...answer.slice(0, -1), 'b.jsonl', '--retrieved', 'bad.trec']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/RUN_UNKNOWN_IDS|2 distinct id\(s\) of the 3 run lines/);
    expect(refused.err).toMatch(/p1#7, nope/);
    expect(() => readFileSync(join(cwd, 'b.jsonl'))).toThrow();
  });
});
