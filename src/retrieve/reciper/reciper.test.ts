import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testing/index.js';
import { Bm25Index, Bm25Retriever } from '../lexical/index.js';
import type { Passage } from '../passages/index.js';
import { renderRecipe } from './recipe.js';
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
    const recipes = [
      { docId: 'p2', title: 'Graphene', text: renderRecipe(JSON.parse(recipeJson('graphene'))) },
    ];
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
