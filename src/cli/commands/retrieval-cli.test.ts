import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CorpusStore } from '../../store/index.js';
import { sharedDataPath } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const papers = ['1503.00841', '1601.02403'].map((id) => sharedDataPath('qasper-dev', 'papers', `${id}.txt`));

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe('index → search → retrieve → trec-eval (two QASPER papers)', () => {
  it('works end to end and refuses a different embedder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-retrieval-'));
    expect((await run(cwd, ['ingest', ...papers])).code).toBe(0);
    const built = await run(cwd, ['index', '--embedder', 'hashed:64']);
    expect(built.err).toMatch(/embedding: \d+\/\d+ done, 0 failed/);
    expect(built.out).toMatch(/indexed \d+ passages of 2 papers \(BM25, dense hashed/);
    // An unchanged corpus is known current from its change token: no command reads its digests,
    // neither \`index\` finding it up to date nor the searches after.
    const digestReads = vi.spyOn(CorpusStore.prototype, 'digests');
    expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).out).toMatch(
      /up to date \(\d+ passages of 2 papers/,
    );

    for (const mode of ['bm25', 'dense', 'hybrid']) {
      const found = await run(cwd, [
        'search',
        'prior knowledge regularization terms',
        '--mode',
        mode,
        '-k',
        '3',
        '--json',
      ]);
      expect(found.code, found.err).toBe(0);
      const json = JSON.parse(found.out) as {
        results: { doc: string; section: string; score: number; snippet: string }[];
      };
      expect(json.results).toHaveLength(3);
      expect(json.results[0]?.snippet.length).toBeGreaterThan(0);
    }
    expect(digestReads).not.toHaveBeenCalled();
    digestReads.mockRestore();
    const text = await run(cwd, ['search', 'argumentation mining', '--mode', 'bm25', '-k', '2']);
    expect(text.out).toMatch(/^mode bm25: BM25 alone; embedder: none used\n 1\. \d+\.\d{4} {2}\S+ {2}/);
    expect(text.err).toBe('');
    // The default (auto) corpus-wide with an embedded embedder is BM25 alone, as measured.
    const auto = await run(cwd, ['search', 'argumentation mining', '-k', '2']);
    expect(auto.out).toMatch(/^mode bm25 \(auto\): BM25 alone; embedder: none used\n/);
    expect(auto.out.split('\n').slice(1).join('\n')).toBe(text.out.split('\n').slice(1).join('\n'));
    // Dense or hybrid on the embedded embedder corpus-wide warns, once.
    const hybrid = await run(cwd, ['search', 'argumentation mining', '--mode', 'hybrid', '-k', '2']);
    expect(hybrid.out).toMatch(
      /^mode hybrid: BM25 fused with dense \(weighted, weights 0\.9\/0\.1\); embedder: hashed-64/,
    );
    expect(hybrid.err.match(/warning: /g)).toHaveLength(1);
    expect(hybrid.err).toMatch(/adds nothing measurable corpus-wide/);
    const dense = await run(cwd, ['search', 'argumentation mining', '--mode', 'dense', '-k', '2']);
    expect(
      dense.err.match(/warning: dense retrieval with the embedded hashed-64[^\n]* far below BM25 alone/g),
    ).toHaveLength(1);

    writeFileSync(
      join(cwd, 'q.jsonl'),
      '{"id": "q1", "query": "regularization terms"}\n{"id": "q2", "query": "argument components"}\n',
    );
    const retrieved = await run(cwd, [
      'retrieve',
      '--queries',
      'q.jsonl',
      '--mode',
      'hybrid',
      '-k',
      '5',
      '--out',
      'run.trec',
    ]);
    expect(retrieved.code, retrieved.err).toBe(0);
    expect(retrieved.out).toMatch(
      /\(mode hybrid: BM25 fused with dense \(weighted, weights 0\.9\/0\.1\); embedder: hashed-64/,
    );
    const runText = readFileSync(join(cwd, 'run.trec'), 'utf8');
    expect(runText.split('\n').filter(Boolean)).toHaveLength(10);
    const firstDoc = runText.split('\n')[0]?.split(' ')[2] as string;
    writeFileSync(join(cwd, 'qrels'), `q1 0 ${firstDoc} 1\nq2 0 nothing#0 1\n`);
    const scored = await run(cwd, ['trec-eval', '-m', 'recip_rank', '-q', 'qrels', 'run.trec']);
    expect(scored.out).toBe(
      'recip_rank            \tq1\t1.0000\nrecip_rank            \tq2\t0.0000\nrecip_rank            \tall\t0.5000\n',
    );

    const mismatch = await run(cwd, ['search', 'x', '--mode', 'dense', '--embedder', 'hashed:32']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.err).toMatch(/INDEX_EMBEDDER_MISMATCH[\s\S]*--rebuild/);
    expect((await run(cwd, ['search', 'x', '--mode', 'reciper'])).err).toMatch(
      /RECIPES_MISSING[\s\S]*recipes extract/,
    );
    expect((await run(cwd, ['recipes', 'extract'])).err).toMatch(/MODEL_REQUIRED/);
  });
});
