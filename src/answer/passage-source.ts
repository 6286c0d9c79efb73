import type { Passage, Retriever } from '../retrieve/index.js';
import type { AnswerInput } from './answerer.js';

/** A passage given to an answerer as context. */
export interface ContextPassage {
  text: string;
  /** Where it comes from, shown to a model before the passage (section path, or paper title). */
  label: string;
  /** Rank position in the retrieval (0 = best). */
  rank: number;
}

/**
 * Where an answerer's retrieved context comes from: by default the row's own paper
 * (`paperPassages`), or a whole corpus (`corpusPassages`: RECIPER's setting, where the answer
 * must be found among all papers).
 */
export interface PassageSource {
  /** Recorded with the run, e.g. "paper:bm25" or "corpus:reciper". */
  readonly id: string;
  /** true when the source needs the row's paper (answering fails without it). */
  readonly needsPaper: boolean;
  passages(input: AnswerInput, k: number, signal?: AbortSignal): Promise<ContextPassage[]>;
}

/** BM25 over the passages of the row's paper (what `answer --context retrieval` has always done). */
export const paperPassages: PassageSource = {
  id: 'paper:bm25',
  needsPaper: true,
  async passages({ row, paper }, k) {
    if (!paper) return [];
    return (await paper.retrieve(row.question, k)).map(({ passage }, rank) => ({
      text: passage.text,
      label: passage.sectionPath.join(' > ') || 'passage',
      rank,
    }));
  },
};

/**
 * An indexed passage's context for a model: its text, labelled by its paper's title and section
 * path (`Title > Methods > Data`); undefined for an id the index does not hold. What `corpusPassages`
 * and `runPassages` resolve a hit's id with.
 */
export function indexedPassageText(
  passages: ReadonlyMap<string, Pick<Passage, 'text' | 'title' | 'sectionPath'>>,
): (id: string) => { text: string; label: string } | undefined {
  return (id) => {
    const p = passages.get(id);
    return p ? { text: p.text, label: [p.title, ...p.sectionPath].filter(Boolean).join(' > ') } : undefined;
  };
}

/**
 * A corpus-wide retriever: `text(id)` resolves a hit's id to its text and label (a paragraph, or
 * a RECIPER recipe); hits it cannot resolve are skipped.
 */
export function corpusPassages(
  retriever: Retriever,
  text: (id: string) => { text: string; label: string } | undefined,
): PassageSource {
  return {
    id: `corpus:${retriever.id}`,
    needsPaper: false,
    async passages({ row }, k) {
      const hits = await retriever.retrieve(row.question, k);
      const out: ContextPassage[] = [];
      for (const hit of hits) {
        const resolved = text(hit.id);
        if (resolved) out.push({ ...resolved, rank: out.length });
      }
      return out;
    },
  };
}
