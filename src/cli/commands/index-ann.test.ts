import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const papers = ['1503.00841', '1601.02403'].map((id) => sharedDataPath('qasper-dev', 'papers', `${id}.txt`));

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe('index --ann, search/retrieve --dense-mode (two QASPER papers)', () => {
  it('builds and reports the graph, searches with it or exactly, and refuses ann without one', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-ann-'));
    expect((await run(cwd, ['ingest', ...papers])).code).toBe(0);
    const conflicting = await run(cwd, ['index', '--ann', '--no-dense']);
    expect(conflicting.code).not.toBe(0);
    expect(conflicting.err).toMatch(/CONFLICTING_OPTIONS/);

    // Built without a graph: auto is exact, ann is refused with the command that builds one.
    expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).out).toMatch(/dense hashed-64\S* exact\)/);
    const exact = await run(cwd, ['search', 'argumentation mining', '--mode', 'dense', '-k', '2']);
    expect(exact.out).toMatch(/; dense search: exact\n/);
    const refused = await run(cwd, [
      'search',
      'argumentation mining',
      '--mode',
      'dense',
      '--dense-mode',
      'ann',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/INDEX_NO_ANN[\s\S]*citegeist index --ann/);

    // --ann on the up-to-date index adds the graph to it and reports its recall.
    const added = await run(cwd, ['index', '--embedder', 'hashed:64', '--ann']);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/up to date/);
    expect(added.out).toMatch(
      /ANN graph \(HNSW, M 16, efConstruction 64\) of \d+ vectors built in \d+\.\d s; recall@10 \d\.\d{3} against exact search on \d+ passages at efSearch \d+/,
    );
    const viaGraph = await run(cwd, ['search', 'argumentation mining', '--mode', 'dense', '-k', '2']);
    expect(viaGraph.out).toMatch(/; dense search: ANN graph \(HNSW, recall@10 \d\.\d{3} at efSearch \d+\)\n/);
    const forcedExact = await run(cwd, [
      'search',
      'argumentation mining',
      '--mode',
      'dense',
      '--dense-mode',
      'exact',
      '-k',
      '2',
    ]);
    expect(forcedExact.out).toMatch(/; dense search: exact\n/);
    const bad = await run(cwd, ['search', 'x', '--dense-mode', 'fast']);
    expect(bad.err).toMatch(/BAD_OPTION[\s\S]*auto, exact, ann/);

    writeFileSync(join(cwd, 'q.jsonl'), '{"id":"q1","query":"argumentation mining"}\n');
    const retrieved = await run(cwd, [
      'retrieve',
      '--queries',
      'q.jsonl',
      '--out',
      'run.trec',
      '--mode',
      'dense',
    ]);
    expect(retrieved.code, retrieved.err).toBe(0);
    expect(retrieved.out).toMatch(/; dense search: ANN graph/);

    // A rebuild without --ann drops the graph and says so.
    const rebuilt = await run(cwd, ['index', '--embedder', 'hashed:64', '--rebuild']);
    expect(rebuilt.out).toMatch(/the ANN graph was dropped[^\n]*citegeist index --ann/);
  });
});
