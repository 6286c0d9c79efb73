/**
 * The retrieval tables of docs/retrieval.md, and the measurement behind citegeist's retrieval
 * defaults (`defaultRetrieval`, src/retrieve/defaults). QASPER dev: 1,005 questions over 281
 * papers; a question's relevant passages are its gold evidence paragraphs (matched verbatim;
 * questions whose evidence is only tables/figures have no qrels and are not scored).
 *
 * Two situations, as the product meets them: corpus-wide (all 13.5k paragraphs of the 281 papers:
 * `search`, `retrieve`, RECIPER's paragraph stream) and within one paper (the paragraphs of the
 * question's paper, BM25 statistics from that paper alone, as `answer --context retrieval` and
 * the extractive answerer rank them). The questions are split by paper into two halves (seeded):
 * fusion weights and the default of each situation are chosen on the tuning half, and every
 * figure in the tables is measured on the other, held-out half, with percentile bootstrap 95% CIs
 * over questions and a paired randomization test of each default against BM25 alone.
 *
 *   npx tsx scripts/measure-retrieval.ts            # the tables (about 2 minutes)
 *   npx tsx scripts/measure-retrieval.ts --embedder openai:text-embedding-3-small   # a configured embedder
 *   CITEGEIST_MODEL=ollama:qwen2.5:7b npx tsx scripts/measure-retrieval.ts   # + RECIPER rows
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseQrels, parseRun } from '../src/formats/index.js';
import {
  createEmbedder,
  createProvider,
  type Embedder,
  LsaEmbedder,
  modelId,
  needsFitting,
  parseModelString,
} from '../src/llm/index.js';
import {
  BM25_ALONE,
  Bm25Index,
  Bm25Retriever,
  chunkDocument,
  createRetriever,
  DenseIndex,
  DenseRetriever,
  defaultRetrieval,
  describeRetrieval,
  type EmbedderKind,
  extractRecipesInto,
  FUSION_DEPTH,
  type FusionConfig,
  fuseLists,
  PaperRetriever,
  type Passage,
  ReciperRetriever,
  type RetrievalConfig,
  type RetrievalScope,
  type Retriever,
  RM3_DEFAULTS,
  readRecipes,
  recipesManifest,
  renderRecipe,
  type ScoredPassage,
  trecEval,
} from '../src/retrieve/index.js';
import { bootstrapCI, createRandom, pairedRandomizationTest } from '../src/stats/index.js';
import { sharedDataPath } from '../src/testing/index.js';
import { VERSION } from '../src/version.js';
import { loadQasperDev, type QasperQuestion } from './qasper-corpus.js';

const MEASURES = ['ndcg_cut.10', 'recall.1,5,10', 'recip_rank'];
const COLUMNS = ['ndcg_cut_10', 'recall_1', 'recall_5', 'recall_10', 'recip_rank'] as const;
const SPLIT_SEED = 21;
const WEIGHT_GRID = Array.from({ length: 21 }, (_, i) => i / 20);
/** What a configuration that adds something must gain over the simpler one (tuning half, nDCG@10). */
const MIN_GAIN = 0.005;

type Lists = ScoredPassage[][];
interface Scored {
  name: string;
  /** Per question (in `questions` order): measure → value. */
  perQuestion: Record<string, number>[];
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

async function main(): Promise<void> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const { documents, questions: all } = loadQasperDev(sharedDataPath('qasper-dev'));
  const passages = documents.flatMap((d) => chunkDocument(d, { maxTokens: Number.MAX_SAFE_INTEGER }));
  const byPaper = new Map<string, Passage[]>();
  for (const p of passages) byPaper.set(p.docId, [...(byPaper.get(p.docId) ?? []), p]);
  const qrelsLines: string[] = [];
  for (const q of all) {
    for (const p of byPaper.get(q.paperId) ?? [])
      if (q.goldParagraphs.includes(p.text)) qrelsLines.push(`${q.id} 0 ${p.id} 1`);
  }
  const qrels = parseQrels(qrelsLines.join('\n'), 'qasper-dev qrels');
  const questions = all.filter((q) => qrels.topics.has(q.id));
  const tunePapers = splitPapers(documents.map((d) => d.id));
  const isTune = questions.map((q) => tunePapers.has(q.paperId));
  const half = (tune: boolean) => questions.flatMap((_, i) => (isTune[i] === tune ? [i] : []));
  const tuneIdx = half(true);
  const testIdx = half(false);
  console.log(
    `QASPER dev: ${passages.length} paragraphs of ${documents.length} papers; ${questions.length} of ${all.length} questions have gold paragraphs; split by paper (seed ${SPLIT_SEED}): ${tuneIdx.length} tuning / ${testIdx.length} held-out questions`,
  );

  const score = (name: string, lists: Lists): Scored => {
    const run = parseRun(
      lists
        .flatMap((hits, i) => hits.map((h, r) => `${questions[i]?.id} Q0 ${h.id} ${r + 1} ${h.score} x`))
        .join('\n'),
    );
    const result = trecEval(qrels, run, { measures: MEASURES, complete: true });
    const byQid = new Map(
      result.queries.map((q) => [q.qid, Object.fromEntries(q.values.map((v) => [v.name, v.value]))]),
    );
    return { name, perQuestion: questions.map((q) => byQid.get(q.id) ?? {}) };
  };
  const meanOn = (s: Scored, idx: number[], m = 'ndcg_cut_10') =>
    idx.reduce((sum, i) => sum + (s.perQuestion[i]?.[m] ?? 0), 0) / (idx.length || 1);

  // ---- the retrievers each situation can use -------------------------------------------------
  const embedderSpec = arg('--embedder');
  const kind: EmbedderKind = embedderSpec ? 'configured' : 'embedded';
  const denseVariants: [string, () => Embedder][] = embedderSpec
    ? [[embedderSpec, () => createEmbedder(embedderSpec, { env: process.env })]]
    : [
        ['lsa-256 (tf-idf; the embedded default)', () => new LsaEmbedder({ dimensions: 256 })],
        [
          'lsa-bm25-256 (LSA over BM25-weighted terms)',
          () => new LsaEmbedder({ dimensions: 256, weighting: 'bm25' }),
        ],
        ['lsa-512 (tf-idf)', () => new LsaEmbedder({ dimensions: 512 })],
      ];
  const corpusBm25 = Bm25Index.build(passages);
  const lexical: Record<string, (scope: RetrievalScope) => Promise<Lists>> = {
    bm25: (scope) => lexicalLists(scope, null),
    'bm25+rm3': (scope) => lexicalLists(scope, RM3_DEFAULTS),
  };
  const paperBm25 = new Map<string, Bm25Index>();
  for (const [id, ps] of byPaper) paperBm25.set(id, Bm25Index.build(ps));
  async function lexicalLists(scope: RetrievalScope, rm3: typeof RM3_DEFAULTS | null): Promise<Lists> {
    const lists: Lists = [];
    for (const q of questions) {
      const index = scope === 'corpus' ? corpusBm25 : (paperBm25.get(q.paperId) as Bm25Index);
      lists.push(await new Bm25Retriever(index, rm3).retrieve(q.question, FUSION_DEPTH));
    }
    return lists;
  }
  async function denseLists(embedder: Embedder): Promise<Record<RetrievalScope, Lists>> {
    if (needsFitting(embedder)) embedder.fit(passages.map((p) => p.text));
    const vectors = await embedder.embed(
      passages.map((p) => p.text),
      'passage',
    );
    const corpus = new DenseRetriever(
      DenseIndex.fromVectors(
        embedder.id,
        passages.map((p) => p.id),
        vectors,
        'exact',
      ),
      embedder,
    );
    const row = new Map(passages.map((p, i) => [p.id, i]));
    const perPaper = new Map<string, Retriever>();
    for (const [id, ps] of byPaper) {
      const index = DenseIndex.fromVectors(
        embedder.id,
        ps.map((p) => p.id),
        ps.map((p) => vectors[row.get(p.id) as number] as Float32Array),
        'exact',
      );
      perPaper.set(id, new DenseRetriever(index, embedder));
    }
    const out: Record<RetrievalScope, Lists> = { corpus: [], paper: [] };
    for (const q of questions) {
      out.corpus.push(await corpus.retrieve(q.question, FUSION_DEPTH));
      out.paper.push(await (perPaper.get(q.paperId) as Retriever).retrieve(q.question, FUSION_DEPTH));
    }
    return out;
  }

  // ---- runs ----------------------------------------------------------------------------------
  const runs: Record<RetrievalScope, Map<string, Lists>> = { corpus: new Map(), paper: new Map() };
  for (const scope of ['corpus', 'paper'] as const)
    for (const [name, make] of Object.entries(lexical)) runs[scope].set(name, await make(scope));
  console.log(`lexical runs done (${elapsed()})`);
  for (const [name, make] of denseVariants) {
    const t0 = performance.now();
    const lists = await denseLists(make());
    runs.corpus.set(`dense ${name}`, lists.corpus);
    runs.paper.set(`dense ${name}`, lists.paper);
    console.log(
      `dense ${name}: fit + embed + search ${((performance.now() - t0) / 1000).toFixed(1)} s (${elapsed()})`,
    );
  }

  // ---- fusion, tuned on one half; candidates for the default ---------------------------------
  interface Row {
    name: string;
    scored: Scored;
    tune: number;
    /** 0 BM25 alone, 1 + RM3, 2 fused with the default embedder, 3 more than that (the rule's order). */
    level: number | null;
    config: RetrievalConfig | null;
  }
  const rows: Record<RetrievalScope, Row[]> = { corpus: [], paper: [] };
  const defaultVariant = denseVariants[0]?.[0] as string;
  for (const scope of ['corpus', 'paper'] as const) {
    const add = (name: string, scored: Scored, level: number | null, config: RetrievalConfig | null) =>
      rows[scope].push({ name, scored: { ...scored, name }, tune: meanOn(scored, tuneIdx), level, config });
    for (const [name, lists] of runs[scope]) {
      const s = score(name, lists);
      if (name === 'bm25') add(name, s, 0, BM25_ALONE);
      else if (name === 'bm25+rm3') add(name, s, 1, { lexical: { rm3: RM3_DEFAULTS }, dense: null });
      else add(name, s, null, null);
    }
    for (const lex of Object.keys(lexical)) {
      for (const [dense] of denseVariants) {
        const a = runs[scope].get(lex) as Lists;
        const b = runs[scope].get(`dense ${dense}`) as Lists;
        const fuse = (config: FusionConfig) =>
          score(
            '',
            a.map((x, i) => fuseLists([x, b[i] ?? []], config).slice(0, FUSION_DEPTH)),
          );
        add(`${lex} + ${dense}: RRF k = 60, equal weights`, fuse({ method: 'rrf' }), null, null);
        const level = lex === 'bm25' && dense === defaultVariant ? 2 : 3;
        for (const method of ['rrf', 'weighted'] as const) {
          let best = { w: 0, tune: Number.NEGATIVE_INFINITY, scored: null as Scored | null };
          for (const w of WEIGHT_GRID.slice(1)) {
            const s = fuse({ method, weights: [1 - w, w] });
            const t = meanOn(s, tuneIdx);
            if (t > best.tune + 1e-12) best = { w, tune: t, scored: s };
          }
          const label = method === 'rrf' ? 'weighted RRF' : 'min–max score fusion';
          const weights = [Math.round((1 - best.w) * 100) / 100, best.w];
          add(
            `${lex} + ${dense}: ${label}, dense weight ${best.w.toFixed(2)} (tuned)`,
            best.scored as Scored,
            level,
            {
              lexical: { rm3: lex === 'bm25+rm3' ? RM3_DEFAULTS : null },
              dense: { fusion: { method, weights } },
            },
          );
        }
      }
    }
    console.log(`${scope}: fusion weights tuned (${elapsed()})`);
  }

  // ---- the rule, and the shipped defaults run through the product's own retrievers ----------
  const embedder = denseVariants[0]?.[1]() as Embedder;
  if (needsFitting(embedder)) embedder.fit(passages.map((p) => p.text));
  const corpusDense = await DenseRetriever.over(embedder, passages);
  const chosen: Record<RetrievalScope, Row> = { corpus: rows.corpus[0] as Row, paper: rows.paper[0] as Row };
  for (const scope of ['corpus', 'paper'] as const) {
    let pick = rows[scope].find((r) => r.level === 0) as Row;
    for (const level of [1, 2, 3]) {
      const best = rows[scope]
        .filter((r) => r.level !== null && r.level <= level)
        .sort((x, y) => y.tune - x.tune)[0] as Row;
      if (best.tune >= pick.tune + MIN_GAIN) pick = best;
    }
    chosen[scope] = pick;
    const shipped = defaultRetrieval({ scope, embedder: kind });
    const lists: Lists = [];
    const perPaper = new Map<string, PaperRetriever>();
    for (const q of questions) {
      if (scope === 'corpus') {
        const r = createRetriever(shipped, { bm25: corpusBm25, dense: corpusDense });
        lists.push(await r.retrieve(q.question, FUSION_DEPTH));
      } else {
        let r = perPaper.get(q.paperId);
        if (!r) {
          r = new PaperRetriever(byPaper.get(q.paperId) ?? [], shipped, embedder);
          perPaper.set(q.paperId, r);
        }
        lists.push(await r.retrieve(q.question, FUSION_DEPTH));
      }
    }
    const s = score('', lists);
    const same = s.perQuestion.every((v, i) => v.ndcg_cut_10 === pick.scored.perQuestion[i]?.ndcg_cut_10);
    rows[scope].push({
      name: `**shipped default**: ${describeRetrieval(shipped)}${shipped.dense ? ` (${embedder.id.replace(/@.*/, '')})` : ''}`,
      scored: s,
      tune: meanOn(s, tuneIdx),
      level: null,
      config: shipped,
    });
    console.log(
      `${scope}: the rule picks "${pick.name}" (tuning nDCG@10 ${pick.tune.toFixed(4)}); shipped default (${kind} embedder): ${describeRetrieval(shipped)} — ${same ? 'the same rankings' : 'DIFFERENT rankings: update src/retrieve/defaults'}`,
    );
  }

  // ---- tables on the held-out half -----------------------------------------------------------
  for (const scope of ['corpus', 'paper'] as const) {
    const bm25 = rows[scope].find((r) => r.level === 0) as Row;
    console.log(
      `\n${scope === 'corpus' ? 'Corpus-wide' : 'Within one paper'}: held-out half (${testIdx.length} questions), means with 95% bootstrap CIs; last column: paired randomization test against BM25 on nDCG@10\n`,
    );
    console.log(
      '| system | tuning nDCG@10 | nDCG@10 | Recall@1 | Recall@5 | Recall@10 | MRR | Δ nDCG@10 vs BM25 (p) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows[scope]) {
      const cells = COLUMNS.map((c) => {
        const values = testIdx.map((i) => r.scored.perQuestion[i]?.[c] ?? 0);
        const ci = bootstrapCI(values, undefined, { seed: 1, iterations: 2000 });
        return `${(ci.estimate ?? 0).toFixed(3)} [${(ci.lower ?? 0).toFixed(3)}, ${(ci.upper ?? 0).toFixed(3)}]`;
      });
      const a = testIdx.map((i) => r.scored.perQuestion[i]?.ndcg_cut_10 ?? 0);
      const b = testIdx.map((i) => bm25.scored.perQuestion[i]?.ndcg_cut_10 ?? 0);
      const test = r === bm25 ? null : pairedRandomizationTest(a, b, { seed: 1, iterations: 10_000 });
      const observed = test?.observed ?? 0;
      const delta = test
        ? `${observed >= 0 ? '+' : '−'}${Math.abs(observed).toFixed(3)} (p ${(test.p ?? 1).toFixed(3)})`
        : '—';
      const name = r === chosen[scope] ? `${r.name} ← the rule's pick` : r.name;
      console.log(`| ${name} | ${r.tune.toFixed(3)} | ${cells.join(' | ')} | ${delta} |`);
    }
  }

  await reciperRows(documents, passages, questions, score, {
    embedder,
    candidates: createRetriever(defaultRetrieval({ scope: 'corpus', embedder: kind }), {
      bm25: corpusBm25,
      dense: corpusDense,
    }),
  });
  console.log(`\ndone in ${elapsed()}`);
}

/** Papers in the tuning half: a seeded shuffle of the sorted ids, first half. */
function splitPapers(ids: readonly string[]): Set<string> {
  const random = createRandom(SPLIT_SEED);
  const shuffled = [...ids].sort();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
  }
  return new Set(shuffled.slice(0, Math.ceil(shuffled.length / 2)));
}

async function reciperRows(
  documents: ReturnType<typeof loadQasperDev>['documents'],
  passages: Passage[],
  questions: QasperQuestion[],
  score: (name: string, lists: Lists) => Scored,
  /** The default embedder (fitted) and the paragraph candidates `search --mode reciper` uses. */
  shipped: { embedder: Embedder; candidates: Retriever },
): Promise<void> {
  const model = process.env.CITEGEIST_MODEL;
  if (!model) {
    console.log(
      '\nRECIPER rows skipped: no model configured for recipe extraction (set CITEGEIST_MODEL, e.g. ollama:qwen2.5:7b).',
    );
    return;
  }
  const dir = join('.citegeist', 'measure-retrieval');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `recipes-${model.replace(/[^\w.-]+/g, '_')}.jsonl`);
  const manifest = recipesManifest({
    model: modelId(parseModelString(model)),
    corpus: 'qasper-dev',
    version: VERSION,
  });
  const llm = createProvider(model, { env: process.env });
  const summary = await extractRecipesInto(path, documents, llm, { manifest });
  console.log(
    `recipes: ${summary.extracted} extracted, ${summary.kept} kept from an earlier run, ${summary.failed.length} failed`,
  );
  const titles = new Map(documents.map((d) => [d.id, d.title]));
  const recipes = [...readRecipes(path).recipes].map(([docId, r]) => ({
    docId,
    title: titles.get(docId) ?? '',
    text: renderRecipe(r.recipe),
  }));
  for (const method of ['reciper', 'reciper-public'] as const) {
    // As in the paper (paragraph candidates from the dense index), and as `search` runs it
    // (candidates from the corpus-wide default).
    for (const [label, options] of [
      ['paragraphs from the dense index', { method }],
      [`paragraphs from ${shipped.candidates.id}`, { method, paragraphCandidates: shipped.candidates }],
    ] as const) {
      const r = await ReciperRetriever.build(shipped.embedder, passages, recipes, options);
      const lists: Lists = [];
      for (const q of questions) lists.push(await r.retrieve(q.question, FUSION_DEPTH));
      const s = score(method, lists);
      const mean =
        s.perQuestion.reduce((sum, v) => sum + (v.ndcg_cut_10 ?? 0), 0) / (s.perQuestion.length || 1);
      console.log(`${method}, ${label} (one candidate per paper, all questions): nDCG@10 ${mean.toFixed(4)}`);
    }
  }
}

await main();
