import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../core/index.js';
import { FakeEmbedder, FakeLlm } from '../../testing/index.js';
import { Bm25Retriever } from '../common/index.js';
import { Bm25Index } from '../lexical/index.js';
import type { Passage } from '../passages/index.js';
import { renderRecipe } from './recipe.js';
import { extractRecipes, JsonlRecipeStore, MemoryRecipeStore, recipeTexts } from './recipe-store.js';
import {
  type Candidate,
  overlap,
  rankByMethod,
  reciperPublicRank,
  reciperRank,
  wordSet,
} from './reciper-fusion.js';
import { ReciperRetriever } from './reciper-retriever.js';

const cand = (
  id: string,
  score: number,
  title: string,
  text: string,
  stream: Candidate['stream'] = 'paragraph',
): Candidate => ({
  id,
  docId: id.slice(0, id.indexOf('#')),
  score,
  title,
  text,
  stream,
});

const query = 'Silver nanoparticle synthesis?';
const paragraphs = [
  cand('A#0', 0.8, 'Gold films', 'we anneal gold'),
  cand('A#1', 0.7, 'Gold films', 'silver nanoparticle synthesis'),
  cand('B#0', 0.75, 'Silver nanoparticle', 'synthesis by reduction'),
];
const recipes = [
  cand('A#recipe', 0.6, 'Gold films', 'Material: silver', 'recipe'),
  cand('C#recipe', 0.9, 'Titania', 'Material: titania Method: sol-gel', 'recipe'),
];

describe('RECIPER scoring (hand-computed)', () => {
  it('tokens are lower-case \\w+ and o = |Q∩T|/|Q|', () => {
    expect([...wordSet('Silver nano_particle, 2-step!')]).toEqual(['silver', 'nano_particle', '2', 'step']);
    expect(overlap(wordSet(query), 'Gold films we anneal gold')).toBe(0);
    expect(overlap(wordSet(query), 'Gold films Material: silver')).toBeCloseTo(1 / 3, 12);
    expect(overlap(new Set(), 'x')).toBe(0);
  });

  it('ŝ = s + 0.1·o after stream-aware dedup; documents ranked by their best candidate', () => {
    const ranked = reciperRank(query, paragraphs, recipes);
    // A#1 (0.7 + 0.1·1 = 0.8) is dropped by dedup: A's paragraph stream keeps A#0 (0.8 + 0).
    expect(ranked.map((d) => [d.docId, d.best.id])).toEqual([
      ['C', 'C#recipe'],
      ['B', 'B#0'],
      ['A', 'A#0'],
    ]);
    expect(ranked[0]?.score).toBeCloseTo(0.9, 12);
    expect(ranked[1]?.score).toBeCloseTo(0.75 + 0.1 * 1, 12);
    expect(ranked[2]?.score).toBeCloseTo(0.8, 12); // A#recipe: 0.6 + 0.1/3 = 0.633 < 0.8
  });

  it('public variant: 0.65/(60+r_P) + 0.35/(60+r_R) + 0.01·overlap + 0.02·title_overlap', () => {
    const ranked = reciperPublicRank(query, paragraphs, recipes);
    const score = Object.fromEntries(ranked.map((d) => [d.docId, d.score]));
    expect(score.A).toBeCloseTo(0.65 / 61 + 0.35 / 62 + 0.01 / 3, 12);
    expect(score.B).toBeCloseTo(0.65 / 62 + 0.01 / 3 + 0.02 * (2 / 3), 12);
    expect(score.C).toBeCloseTo(0.35 / 61, 12);
    expect(ranked.map((d) => d.docId)).toEqual(['B', 'A', 'C']);
  });

  it.each([
    ['paragraph', ['A', 'B']],
    ['recipe', ['C', 'A']],
    ['naive', ['C', 'A', 'B']],
    ['rrf', ['A', 'C', 'B']], // 1/61+1/62, 1/61, 1/62
  ] as const)('baseline %s ranks %j', (method, docs) => {
    expect(rankByMethod(method, query, paragraphs, recipes).map((d) => d.docId)).toEqual(docs);
  });
});

const doc = (id: string, title: string, text: string) =>
  DocumentSchema.parse({ id, title, source: 'text', text });
const recipeJson = (material: string) =>
  JSON.stringify({
    material_name: material,
    synthesis_method: 'sol-gel',
    steps: [{ description: 'Mix precursors.' }, { description: 'Anneal at 500 C.' }],
    key_points: ['cheap', 'scalable'],
  });

describe('recipe extraction', () => {
  it('renders Material / Method / steps / Key points', () => {
    const r = JSON.parse(recipeJson('TiO2'));
    expect(renderRecipe(r)).toBe(
      'Material: TiO2\nMethod: sol-gel\nMix precursors.\nAnneal at 500 C.\nKey points: cheap; scalable',
    );
  });

  it('validates, stores, counts failures and resumes (JSONL)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'recipes-')), 'recipes.jsonl');
    const docs = [doc('d1', 'TiO2 films', 'We made TiO2.'), doc('d2', 'Essay', 'No procedure here.')];
    const llm = new FakeLlm([recipeJson('TiO2'), 'not json', '{"material_name": 3}', 'still wrong']);
    const ticks: unknown[] = [];
    const first = await extractRecipes(docs, llm, new JsonlRecipeStore(path), {
      concurrency: 1,
      onProgress: (outcome, done, total) =>
        ticks.push([outcome.ok, outcome.reason?.slice(0, 4), done, total]),
    });
    expect(first.extracted).toBe(1);
    expect(ticks).toEqual([
      [true, undefined, 1, 2],
      [false, 'd2: ', 2, 2],
    ]);
    expect(first.failed.map((f) => f.docId)).toEqual(['d2']);
    expect(llm.calls[0]?.messages[1]?.content).toMatch(/Title: TiO2 films[\s\S]*We made TiO2\./);

    const reopened = new JsonlRecipeStore(path);
    const again = await extractRecipes(docs, new FakeLlm([]), reopened);
    expect(again).toEqual({
      extracted: 0,
      skipped: 2,
      failed: [{ docId: 'd2', reason: expect.any(String) }],
    });

    const retryTicks: number[] = [];
    const retry = await extractRecipes(docs, new FakeLlm([recipeJson('none')]), reopened, {
      retryFailed: true,
      onProgress: (_outcome, _done, total) => retryTicks.push(total),
    });
    expect(retryTicks).toEqual([1]); // the stored success is skipped, not counted
    expect(retry).toMatchObject({ extracted: 1, skipped: 1, failed: [] });
    expect([...recipeTexts(new JsonlRecipeStore(path)).keys()].sort()).toEqual(['d1', 'd2']);
  });
});

describe('ReciperRetriever (FakeEmbedder)', () => {
  const passage = (docId: string, n: number, text: string, title: string): Passage => ({
    id: `${docId}#${n}`,
    docId,
    text,
    start: 0,
    end: text.length,
    sectionPath: [],
    page: null,
    title,
  });
  const passages = [
    passage('p1', 0, 'titanium dioxide films were annealed', 'TiO2 films'),
    passage('p1', 1, 'titanium dioxide sol gel route', 'TiO2 films'),
    passage('p2', 0, 'graphene was exfoliated in water', 'Graphene'),
  ];

  it('returns one item per document, queries with role "query", and switches methods', async () => {
    const embedder = new FakeEmbedder(64);
    const store = new MemoryRecipeStore();
    store.put({ docId: 'p2', ok: true, model: 'fake', recipe: JSON.parse(recipeJson('graphene')) });
    const recipes = [...recipeTexts(store)].map(([docId, text]) => ({ docId, title: 'Graphene', text }));
    const retriever = await ReciperRetriever.build(embedder, passages, recipes);
    const hits = await retriever.retrieve('titanium dioxide sol gel', 5);
    expect(hits.map((h) => h.docId)).toEqual(['p1', 'p2']);
    expect(hits[0]?.id).toBe('p1#1');
    expect(embedder.calls.at(-1)?.role).toBe('query');
    const recipeOnly = await ReciperRetriever.build(embedder, passages, recipes, { method: 'recipe' });
    expect((await recipeOnly.retrieve('graphene', 5)).map((h) => h.id)).toEqual(['p2#recipe']);
  });

  it('takes the paragraph stream from another retriever when given, scored by cosine (BM25 candidates)', async () => {
    const embedder = new FakeEmbedder(64);
    const bm25 = new Bm25Retriever(Bm25Index.build(passages));
    const paragraphOnly = await ReciperRetriever.build(embedder, passages, [], {
      method: 'paragraph',
      paragraphCandidates: bm25,
    });
    expect(paragraphOnly.id).toBe('paragraph(paragraphs from bm25)');
    // BM25 finds only the graphene passage; the dense index alone would also return p1's passages.
    const hits = await paragraphOnly.retrieve('graphene exfoliated', 5);
    expect(hits.map((h) => h.id)).toEqual(['p2#0']);
    const [q] = await embedder.embed(['graphene exfoliated'], 'query');
    const [v] = await embedder.embed([passages[2]?.text as string], 'passage');
    let cosine = 0;
    for (let i = 0; i < 64; i++) cosine += (q?.[i] ?? 0) * (v?.[i] ?? 0);
    expect(hits[0]?.score).toBeCloseTo(cosine, 5);
  });
});
