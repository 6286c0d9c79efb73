/**
 * Synthetic corpora of any size for the scale benchmark (issue 30): copies of the 281 QASPER dev
 * papers, where copy 0 is the papers as they are and every later copy has its paragraphs
 * shuffled within the paper and about one word in seven replaced by a made-up word (seeded, so a
 * corpus is the same on every run and no two documents are equal). Written straight into a
 * citegeist corpus (`CorpusStore.upsert`), so the benchmark measures indexing, not PDF parsing.
 *
 *   npx tsx scripts/synthetic-corpus.ts --scale 10 --out /tmp/scale-10/corpus.sqlite
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Document } from '../src/core/index.js';
import { CorpusStore } from '../src/store/index.js';
import { markdownPaperToDocument } from './qasper-corpus.js';

/** mulberry32: a small seeded PRNG (the same corpus on every run). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Copy `copy` of a Markdown paper: paragraphs shuffled among paragraph slots, words replaced. */
export function variant(markdown: string, copy: number): string {
  if (copy === 0) return markdown;
  const rand = prng(copy * 7919 + markdown.length);
  const blocks = markdown.split(/\n\s*\n/);
  const slots = blocks
    .map((b, i) => (b.trim().startsWith('#') || b.startsWith('**Paper ID') ? -1 : i))
    .filter((i) => i >= 0);
  const moved = slots.map((i) => blocks[i] as string);
  for (let i = moved.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [moved[i], moved[j]] = [moved[j] as string, moved[i] as string];
  }
  slots.forEach((slot, n) => {
    blocks[slot] = (moved[n] as string).replace(/[A-Za-z]{4,}/g, (w) => {
      if (rand() >= 1 / 7) return w;
      const len = 4 + Math.floor(rand() * 6);
      let s = '';
      for (let k = 0; k < len; k++) s += LETTERS[Math.floor(rand() * 26)];
      return s;
    });
  });
  return blocks.join('\n\n');
}

/** The papers of a corpus `scale` times the QASPER dev split, one at a time. */
export function* syntheticPapers(qasperDir: string, scale: number): Generator<Document> {
  const papersDir = join(qasperDir, 'papers');
  const files = readdirSync(papersDir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  const texts = files.map(
    (f) => [f.replace(/\.txt$/, ''), readFileSync(join(papersDir, f), 'utf8')] as const,
  );
  for (let copy = 0; copy < scale; copy++) {
    for (const [id, markdown] of texts) {
      yield markdownPaperToDocument(copy === 0 ? id : `${id}-c${copy}`, variant(markdown, copy));
    }
  }
}

/** Writes the synthetic corpus at `out`; returns the number of papers. */
export function writeSyntheticCorpus(qasperDir: string, scale: number, out: string): number {
  const store = CorpusStore.open(out, { durable: false });
  let n = 0;
  try {
    for (const doc of syntheticPapers(qasperDir, scale)) {
      store.upsert(doc);
      n++;
    }
  } finally {
    store.close();
  }
  return n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: '1' }, out: { type: 'string' }, qasper: { type: 'string' } },
  });
  if (!values.out) throw new Error('--out <corpus.sqlite> is required');
  const qasper = values.qasper ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'qasper-dev');
  console.log(
    `${writeSyntheticCorpus(qasper, Number(values.scale), values.out)} papers written to ${values.out}`,
  );
}
