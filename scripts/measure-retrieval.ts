/**
 * The retrieval table of docs/retrieval.md: QASPER dev (1,005 questions over 281 papers; a
 * question's relevant passages are its gold evidence paragraphs, matched verbatim; questions whose
 * evidence is only tables/figures have no qrels and are not scored), retrieval over all 13.5k
 * paragraphs of the 281 papers, scored with citegeist's trec_eval port.
 *
 *   npx tsx scripts/measure-retrieval.ts            # BM25, dense (embedded default), hybrid RRF
 *   CITEGEIST_MODEL=ollama:qwen2.5:7b npx tsx scripts/measure-retrieval.ts   # + RECIPER rows
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbedder, createProvider, needsFitting } from '../src/llm/index.js';
import {
  Bm25Index,
  chunkDocument,
  DenseIndex,
  extractRecipes,
  JsonlRecipeStore,
  parseQrels,
  parseRun,
  ReciperRetriever,
  recipeTexts,
  rrfFusion,
  type ScoredPassage,
  scoredPassage,
  trecEval,
} from '../src/retrieve/index.js';
import { sharedDataPath } from '../src/testing/index.js';
import { loadQasperDev } from './qasper-corpus.js';

const DEPTH = 100;
const MEASURES = ['ndcg_cut.10', 'recall.1,5,10', 'recip_rank'];

async function main(): Promise<void> {
  const started = performance.now();
  const { documents, questions } = loadQasperDev(sharedDataPath('qasper-dev'));
  const passages = documents.flatMap((d) => chunkDocument(d, { maxTokens: Number.MAX_SAFE_INTEGER }));
  const byPaper = new Map<string, typeof passages>();
  for (const p of passages) byPaper.set(p.docId, [...(byPaper.get(p.docId) ?? []), p]);
  const qrelsLines: string[] = [];
  for (const q of questions) {
    for (const p of byPaper.get(q.paperId) ?? [])
      if (q.goldParagraphs.includes(p.text)) qrelsLines.push(`${q.id} 0 ${p.id} 1`);
  }
  const qrels = parseQrels(qrelsLines.join('\n'), 'qasper-dev qrels');
  const scoredQuestions = questions.filter((q) => qrels.topics.has(q.id));
  console.log(
    `QASPER dev: ${passages.length} paragraphs of ${documents.length} papers; ${scoredQuestions.length} of ${questions.length} questions have gold paragraphs`,
  );

  const runOf = (lists: ScoredPassage[][]) =>
    parseRun(
      lists
        .flatMap((hits, i) =>
          hits.map((h, r) => `${scoredQuestions[i]?.id} Q0 ${h.id} ${r + 1} ${h.score} x`),
        )
        .join('\n'),
    );
  const rows: { system: string; values: Record<string, number> }[] = [];
  const score = (system: string, lists: ScoredPassage[][]) => {
    const result = trecEval(qrels, runOf(lists), { measures: MEASURES, complete: true });
    rows.push({ system, values: Object.fromEntries(result.summary.map((v) => [v.name, v.value])) });
    console.log(`scored ${system} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  };

  const bm25 = Bm25Index.build(passages);
  const bm25Lists = scoredQuestions.map((q) =>
    bm25.search(q.question, DEPTH).map((h) => scoredPassage(h.id, h.score)),
  );
  score('BM25 (k1 0.9, b 0.4, Porter stemming, stop words)', bm25Lists);

  const embedder = createEmbedder('default');
  if (needsFitting(embedder)) embedder.fit(passages.map((p) => p.text));
  const vectors = await embedder.embed(
    passages.map((p) => p.text),
    'passage',
  );
  const dense = DenseIndex.fromVectors(
    embedder.id,
    passages.map((p) => p.id),
    vectors,
    'exact',
  );
  const queryVectors = await embedder.embed(
    scoredQuestions.map((q) => q.question),
    'query',
  );
  const denseLists = dense
    .search(queryVectors, DEPTH)
    .map((hits) => hits.map((h) => scoredPassage(h.id, h.score)));
  score(`dense (embedded default: ${embedder.id.replace(/@.*/, '')}, exact)`, denseLists);
  score(
    'hybrid RRF (BM25 + dense, k = 60)',
    bm25Lists.map((b, i) => rrfFusion([b, denseLists[i] ?? []]).slice(0, DEPTH)),
  );

  const model = process.env.CITEGEIST_MODEL;
  if (!model) {
    console.log(
      'RECIPER rows skipped: no model configured for recipe extraction (set CITEGEIST_MODEL, e.g. ollama:qwen2.5:7b).',
    );
  } else {
    const dir = join('.citegeist', 'measure-retrieval');
    mkdirSync(dir, { recursive: true });
    const store = new JsonlRecipeStore(join(dir, `recipes-${model.replace(/[^\w.-]+/g, '_')}.jsonl`));
    const summary = await extractRecipes(documents, createProvider(model, { env: process.env }), store);
    console.log(
      `recipes: ${summary.extracted} extracted, ${summary.skipped} already stored, ${summary.failed.length} failed`,
    );
    const titles = new Map(documents.map((d) => [d.id, d.title]));
    const recipes = [...recipeTexts(store)].map(([docId, text]) => ({
      docId,
      title: titles.get(docId) ?? '',
      text,
    }));
    for (const method of ['reciper', 'reciper-public'] as const) {
      const r = await ReciperRetriever.build(embedder, passages, recipes, { method, paragraphIndex: dense });
      const lists: ScoredPassage[][] = [];
      for (const q of scoredQuestions) lists.push(await r.retrieve(q.question, DEPTH));
      score(`${method} (one candidate per paper)`, lists);
    }
  }

  const cols = ['ndcg_cut_10', 'recall_1', 'recall_5', 'recall_10', 'recip_rank'];
  console.log(`\n| system | nDCG@10 | Recall@1 | Recall@5 | Recall@10 | MRR |\n|---|---|---|---|---|---|`);
  for (const r of rows)
    console.log(`| ${r.system} | ${cols.map((c) => (r.values[c] ?? 0).toFixed(4)).join(' | ')} |`);
  console.log(
    `\n${scoredQuestions.length} questions, depth ${DEPTH}, trec_eval -c semantics; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

await main();
