/**
 * One measured step of `bench/scale.bench.ts`, run in its own process so that its peak RSS and its
 * cold open are its own. Prints one JSON line on stdout. Steps:
 *   index <corpus> [dense|bm25]        citegeist index --rebuild
 *   open <corpus> <queries.json>       open the index, check it is current, run the queries (BM25)
 *   fts-build <corpus> <fts.sqlite>    SQLite FTS5 (porter) over the same passages
 *   fts-query <fts.sqlite> <queries.json>
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { memoryIo } from '../src/cli/io.js';
import { runCli } from '../src/cli/program.js';
import { assertIndexFresh, loadIndex, STOPWORDS } from '../src/retrieve/index.js';
import { CorpusStore } from '../src/store/index.js';

const [step, a, b] = process.argv.slice(2) as [string, string, string | undefined];
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const latencies = (run: (q: string) => void, queries: string[]) => {
  const ms = queries.map((q) => {
    const t = performance.now();
    run(q);
    return performance.now() - t;
  });
  return { medianMs: quantile(ms, 0.5), p95Ms: quantile(ms, 0.95) };
};
const readQueries = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as string[];

if (step === 'index') {
  const { io, stderr } = memoryIo({ cwd: dirname(a) });
  const argv = ['index', '--corpus', a, '--rebuild', ...(b === 'bm25' ? ['--no-dense'] : [])];
  const t = performance.now();
  const code = await runCli(argv, io);
  if (code !== 0) throw new Error(stderr());
  console.log(JSON.stringify({ ms: performance.now() - t, peakMb: peakMb() }));
} else if (step === 'open') {
  const queries = readQueries(b as string);
  const dir = join(dirname(a), 'index');
  const t0 = performance.now();
  const saved = loadIndex(dir);
  const store = CorpusStore.open(a, { readonly: true });
  assertIndexFresh(dir, saved.manifest, store);
  store.close();
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  saved.bm25.search(queries[0] as string, 10).map((h) => saved.passages.get(h.id)?.text);
  const coldQueryMs = performance.now() - t1;
  const lat = latencies((q) => saved.bm25.search(q, 10), queries.slice(1));
  console.log(JSON.stringify({ openMs, coldQueryMs, ...lat, peakMb: peakMb() }));
} else if (step === 'fts-build') {
  const t = performance.now();
  const saved = loadIndex(join(dirname(a), 'index'));
  const db = new Database(b as string);
  db.exec("CREATE VIRTUAL TABLE p USING fts5(id UNINDEXED, text, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO p (id, text) VALUES (?, ?)');
  let batch: [string, string][] = [];
  const flush = db.transaction((rows: [string, string][]) => {
    for (const [id, text] of rows) insert.run(id, text);
  });
  for (const p of saved.passages.values()) {
    batch.push([p.id, p.text]);
    if (batch.length === 10_000) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  db.close();
  console.log(JSON.stringify({ ms: performance.now() - t, peakMb: peakMb() }));
} else if (step === 'fts-query') {
  const queries = readQueries(b as string);
  // The same words citegeist queries with: letter/digit runs, stop words left out, ORed.
  const match = (q: string) =>
    (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((w) => !STOPWORDS.has(w))
      .map((w) => `"${w}"`)
      .join(' OR ');
  const t0 = performance.now();
  const db = new Database(a, { readonly: true });
  const stmt = db.prepare('SELECT id, text, bm25(p) AS s FROM p WHERE p MATCH ? ORDER BY s LIMIT 10');
  const openMs = performance.now() - t0;
  const run = (q: string) => {
    const m = match(q);
    if (m) stmt.all(m);
  };
  const t1 = performance.now();
  run(queries[0] as string);
  const coldQueryMs = performance.now() - t1;
  const lat = latencies(run, queries.slice(1));
  console.log(JSON.stringify({ openMs, coldQueryMs, ...lat, peakMb: peakMb() }));
} else throw new Error(`unknown step ${step}`);
