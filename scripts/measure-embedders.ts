/**
 * Measures embedded (no-download) embedder candidates against BM25 on the QASPER dev split:
 * for each question with evidence, rank the paragraphs of its own paper; gold = the evidence
 * paragraphs; report nDCG@10 (binary gains) and Recall@5, macro-averaged over questions.
 *
 *   npx tsx scripts/measure-embedders.ts [--limit N]
 *
 * Every model is fitted (where it fits at all) on all paragraphs of the 281 dev papers, as an index
 * over that corpus would be. The BM25 here (k1 1.2, b 0.75, same tokenizer) is a baseline only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentTerms } from '../src/llm/embedders/tokenize.js';
import type { Embedder } from '../src/llm/index.js';
import { HashedEmbedder, LsaEmbedder } from '../src/llm/index.js';
import { sharedDataPath } from '../src/testing/index.js';

interface Question {
  paper: string;
  question: string;
  gold: Set<number>;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function loadPapers(dir: string): Map<string, string[]> {
  const papers = new Map<string, string[]>();
  for (const file of readdirSync(join(dir, 'papers'))) {
    const text = readFileSync(join(dir, 'papers', file), 'utf8');
    const paragraphs = text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== '' && !p.startsWith('#') && !p.startsWith('**Paper ID'));
    papers.set(file.replace(/\.txt$/, ''), paragraphs);
  }
  return papers;
}

function loadQuestions(
  dir: string,
  papers: Map<string, string[]>,
): { questions: Question[]; skippedEvidence: number } {
  const raw = JSON.parse(readFileSync(join(dir, 'questions_validation.json'), 'utf8')) as {
    paper_id: string;
    question: string;
    answers: { evidence: string[] }[];
  }[];
  const questions: Question[] = [];
  let skippedEvidence = 0;
  for (const q of raw) {
    const paragraphs = (papers.get(q.paper_id) ?? []).map(norm);
    const gold = new Set<number>();
    for (const a of q.answers) {
      for (const e of a.evidence) {
        const n = norm(e);
        let i = paragraphs.indexOf(n);
        if (i < 0 && n.length >= 40)
          i = paragraphs.findIndex((p) => p.includes(n) || (n.includes(p) && p.length > 40));
        if (i >= 0) gold.add(i);
        else skippedEvidence++;
      }
    }
    if (gold.size > 0) questions.push({ paper: q.paper_id, question: q.question, gold });
  }
  return { questions, skippedEvidence };
}

function ndcgAt(ranked: number[], gold: Set<number>, k: number): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++)
    if (gold.has(ranked[i] as number)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, gold.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

function recallAt(ranked: number[], gold: Set<number>, k: number): number {
  return ranked.slice(0, k).filter((i) => gold.has(i)).length / gold.size;
}

/** BM25 with corpus-wide document frequencies, scoring one paper's paragraphs. */
function bm25Ranker(papers: Map<string, string[]>) {
  const docs = new Map<string, string[][]>();
  const df = new Map<string, number>();
  let total = 0;
  let length = 0;
  for (const [id, ps] of papers) {
    const tokenized = ps.map(contentTerms);
    docs.set(id, tokenized);
    for (const d of tokenized) {
      total++;
      length += d.length;
      for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const avg = length / total;
  return (paper: string, query: string): number[] => {
    const q = contentTerms(query);
    const ps = docs.get(paper) ?? [];
    const scores = ps.map((d) => {
      const tf = new Map<string, number>();
      for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
      let s = 0;
      for (const t of q) {
        const f = tf.get(t);
        if (!f) continue;
        const n = df.get(t) ?? 0;
        const idf = Math.log(1 + (total - n + 0.5) / (n + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
      }
      return s;
    });
    return rank(scores);
  };
}

function rank(scores: number[]): number[] {
  return [...scores.keys()].sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
}

async function denseRanker(embedder: Embedder, papers: Map<string, string[]>) {
  const vectors = new Map<string, Float32Array[]>();
  for (const [id, ps] of papers) vectors.set(id, await embedder.embed(ps, 'passage'));
  return async (paper: string, query: string): Promise<number[]> => {
    const [q] = await embedder.embed([query], 'query');
    const scores = (vectors.get(paper) ?? []).map((v) => {
      let s = 0;
      for (let i = 0; i < v.length; i++) s += (v[i] as number) * ((q as Float32Array)[i] as number);
      return s;
    });
    return rank(scores);
  };
}

async function main(): Promise<void> {
  const dir = sharedDataPath('qasper-dev');
  const papers = loadPapers(dir);
  const { questions, skippedEvidence } = loadQuestions(dir, papers);
  const limitArg = process.argv.indexOf('--limit');
  const qs = limitArg > 0 ? questions.slice(0, Number(process.argv[limitArg + 1])) : questions;
  const all = [...papers.values()].flat();
  console.log(
    `QASPER dev: ${papers.size} papers, ${all.length} paragraphs, ${qs.length} questions with matched evidence (${skippedEvidence} evidence strings not found as paragraphs, e.g. tables/figures)`,
  );
  const bm25 = bm25Ranker(papers);
  const only = process.argv.indexOf('--only');
  const candidates: [string, () => Promise<Embedder>][] = [
    ['lsa-256 (σ^0.5)', async () => new LsaEmbedder({ dimensions: 256 }).fit(all)],
    ['lsa-256 (σ^0)', async () => new LsaEmbedder({ dimensions: 256, sigmaPower: 0 }).fit(all)],
    ['lsa-128 (σ^0.5)', async () => new LsaEmbedder({ dimensions: 128 }).fit(all)],
    ['hashed-1024 words+bigrams+char4', async () => new HashedEmbedder({ dimensions: 1024 })],
  ];
  const rows: string[] = [];
  const evaluate = async (
    name: string,
    ranker: (p: string, q: string) => number[] | Promise<number[]>,
    seconds: number,
  ) => {
    let ndcg = 0;
    let recall = 0;
    for (const q of qs) {
      const ranked = await ranker(q.paper, q.question);
      ndcg += ndcgAt(ranked, q.gold, 10);
      recall += recallAt(ranked, q.gold, 5);
    }
    const row = `| ${name} | ${(ndcg / qs.length).toFixed(3)} | ${(recall / qs.length).toFixed(3)} | ${seconds.toFixed(1)} |`;
    rows.push(row);
    console.log(row);
  };
  console.log('| model | nDCG@10 | Recall@5 | fit + embed corpus (s) |\n|---|---|---|---|');
  await evaluate('BM25 (k1 1.2, b 0.75)', bm25, 0);
  for (const [name, make] of candidates) {
    if (only > 0 && !name.startsWith(process.argv[only + 1] ?? '')) continue;
    const t0 = performance.now();
    const embedder = await make();
    const ranker = await denseRanker(embedder, papers);
    await evaluate(name, ranker, (performance.now() - t0) / 1000);
  }
}

await main();
