import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const paper = (title: string, body: string) =>
  `# ${title}\n\n## Introduction\n\n${body}\n\n## Method\n\nWe train a classifier on labelled sentences and report accuracy on held-out data.\n`;

describe('index after papers are added to an indexed corpus (issue 30: incremental)', () => {
  it('appends a part instead of rebuilding, finds the new paper, and matches a rebuild’s scores', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-update-'));
    const topics = [
      'graphene membranes',
      'protein folding',
      'coral bleaching',
      'dark matter halos',
      'soil microbes',
    ];
    for (const [i, t] of topics.entries())
      writeFileSync(join(cwd, `p${i}.md`), paper(`P${i}`, `We study ${t} in depth.`));
    expect((await run(cwd, ['ingest', ...topics.map((_, i) => `p${i}.md`)])).code).toBe(0);
    expect((await run(cwd, ['index', '--no-dense'])).code).toBe(0);
    writeFileSync(join(cwd, 'new.md'), paper('New', 'Perovskite solar cells degrade under humidity.'));
    expect((await run(cwd, ['ingest', 'new.md'])).code).toBe(0);
    const updated = await run(cwd, ['index', '--no-dense']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.err).toMatch(/updating the index: 1 added \(new\)/);
    expect(updated.out).toMatch(
      /1 paper\(s\) indexed into a new part, 0 tombstoned; \d+ passages of 6 papers \(BM25 in 2 parts/,
    );
    expect((await run(cwd, ['index', '--no-dense'])).out).toMatch(/up to date/);
    const found = await run(cwd, ['search', 'perovskite humidity', '--json']);
    expect(found.code, found.err).toBe(0);
    const hits = (JSON.parse(found.out) as { results: { doc: string; score: number }[] }).results;
    expect(hits[0]?.doc).toBe('new');
    const rebuilt = await run(cwd, ['index', '--no-dense', '--rebuild']);
    expect(rebuilt.out).toMatch(/indexed \d+ passages of 6 papers/);
    const again = (
      JSON.parse((await run(cwd, ['search', 'perovskite humidity', '--json'])).out) as {
        results: { id: string; score: number }[];
      }
    ).results;
    expect(new Map(again.map((h) => [h.id, h.score]))).toEqual(
      new Map((hits as unknown as { id: string; score: number }[]).map((h) => [h.id, h.score])),
    );
  });
});
