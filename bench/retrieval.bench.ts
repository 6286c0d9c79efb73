/**
 * BM25: citegeist's typed-array index vs minisearch on the same 20,000 real passages (QASPER dev
 * papers, paragraphs split at sentence boundaries to ≤ 80 tokens) and 1,000 QASPER questions.
 * Prints build time, query time per query, the query-time ratio, and hit@10 of both against the
 * gold evidence paragraphs (a hit = a passage of a gold paragraph in the top 10).
 */
import MiniSearch from 'minisearch';
import { loadQasperDev } from '../scripts/qasper-corpus.js';
import {
  Bm25Index,
  chunkDocument,
  createAnalyzer,
  DEFAULT_ANALYZER,
  type Passage,
} from '../src/retrieve/index.js';
import { sharedDataPath } from '../src/testing/index.js';

const N_PASSAGES = 20_000;
const N_QUERIES = 1_000;

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const out = f();
  return [out, performance.now() - t0];
}

export default async function (): Promise<void> {
  const { documents, questions } = loadQasperDev(sharedDataPath('qasper-dev'));
  const passages: Passage[] = documents
    .flatMap((d) => chunkDocument(d, { maxTokens: 80 }))
    .slice(0, N_PASSAGES);
  const inCorpus = new Set(passages.map((p) => p.docId));
  // A passage is gold when its text lies inside a gold paragraph of its paper.
  const goldOf = (q: (typeof questions)[number]) =>
    new Set(
      passages
        .filter((p) => p.docId === q.paperId && q.goldParagraphs.some((g) => g.includes(p.text)))
        .map((p) => p.id),
    );
  const pool = questions.filter((q) => inCorpus.has(q.paperId));
  const queries = Array.from({ length: N_QUERIES }, (_, i) => pool[i % pool.length] as (typeof pool)[number]);
  const gold = queries.map(goldOf);
  console.log(
    `corpus: ${passages.length} passages from ${inCorpus.size} papers; ${queries.length} queries (${new Set(queries).size} distinct), ${gold.filter((g) => g.size).length} with gold passages`,
  );

  const [bm25, bm25Build] = time(() => Bm25Index.build(passages));
  const [mini, miniBuild] = time(() => {
    const m = new MiniSearch<Passage>({ fields: ['text'], storeFields: [] });
    m.addAll(passages);
    return m;
  });
  // minisearch again with our analyzer (same stop words and stemming), for a like-for-like ranking.
  const analyze = createAnalyzer(DEFAULT_ANALYZER);
  const [miniSame, miniSameBuild] = time(() => {
    const m = new MiniSearch<Passage>({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => analyze(text),
      processTerm: (term) => term,
    });
    m.addAll(passages);
    return m;
  });
  // Warm-up (JIT) on all, then the timed runs.
  for (const q of queries.slice(0, 50)) {
    bm25.search(q.question, 10);
    mini.search(q.question);
    miniSame.search(q.question);
  }
  const [oursHits, oursMs] = time(() => queries.map((q) => bm25.search(q.question, 10).map((h) => h.id)));
  const [miniHits, miniMs] = time(() =>
    queries.map((q) =>
      mini
        .search(q.question)
        .slice(0, 10)
        .map((h) => String(h.id)),
    ),
  );
  const [sameHits, sameMs] = time(() =>
    queries.map((q) =>
      miniSame
        .search(q.question)
        .slice(0, 10)
        .map((h) => String(h.id)),
    ),
  );
  const hitAt10 = (hits: string[][]) => {
    let n = 0;
    let hit = 0;
    hits.forEach((h, i) => {
      const g = gold[i] as Set<string>;
      if (!g.size) return;
      n++;
      if (h.some((id) => g.has(id))) hit++;
    });
    return hit / n;
  };
  const perQuery = (ms: number) => (ms / queries.length).toFixed(3);
  console.log(
    `build: citegeist ${bm25Build.toFixed(0)} ms, minisearch ${miniBuild.toFixed(0)} ms (with our analyzer ${miniSameBuild.toFixed(0)} ms)`,
  );
  console.log(
    `query: citegeist ${perQuery(oursMs)} ms/query, minisearch ${perQuery(miniMs)} ms/query (with our analyzer ${perQuery(sameMs)})`,
  );
  console.log(
    `query-time ratio minisearch/citegeist: default ${(miniMs / oursMs).toFixed(1)}x, same analyzer ${(sameMs / oursMs).toFixed(1)}x (goal >= 20x)`,
  );
  console.log(
    `hit@10: citegeist ${hitAt10(oursHits).toFixed(4)}, minisearch default ${hitAt10(miniHits).toFixed(4)}, same analyzer ${hitAt10(sameHits).toFixed(4)} (goal: equal or better)`,
  );
}
