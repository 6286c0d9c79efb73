import { CitegeistError } from '../../core/index.js';
import type { Run } from '../../formats/index.js';
import { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';

/** How the ids of another engine's run are checked against the corpus's index. */
export interface RunIdLookup {
  /** Whether `id` is a passage of the index (`<paperId>#<n>`). */
  hasPassage(id: string): boolean;
  /** The passage ids of a paper in paper order, or undefined when the index has no such paper. */
  passagesOfPaper(paperId: string): string[] | undefined;
}

/**
 * Each topic's ranking of a TREC run from any engine (Pyserini, OpenSearch, …) as citegeist
 * passages: entries by score, highest first (file order among equal scores); a passage id is
 * taken as it is, a paper id stands for that paper's passages in paper order, with the paper's
 * score. An id that is neither is refused with `RUN_UNKNOWN_IDS`, counting them, so a run of
 * another corpus or id scheme never silently yields empty contexts.
 */
export function resolveRun(run: Run, file: string, lookup: RunIdLookup): Map<string, ScoredPassage[]> {
  const unknown = new Set<string>();
  let total = 0;
  const out = new Map<string, ScoredPassage[]>();
  for (const [topic, entries] of run.topics) {
    const ranked = entries.map((e, i) => ({ ...e, i })).sort((a, b) => b.sim - a.sim || a.i - b.i);
    const seen = new Set<string>();
    const list: ScoredPassage[] = [];
    for (const { docno, sim } of ranked) {
      total++;
      const ids = lookup.hasPassage(docno) ? [docno] : lookup.passagesOfPaper(docno);
      if (!ids) {
        unknown.add(docno);
        continue;
      }
      for (const id of ids) {
        if (seen.has(id)) continue;
        seen.add(id);
        list.push(scoredPassage(id, sim));
      }
    }
    out.set(topic, list);
  }
  if (unknown.size > 0) {
    const examples = [...unknown].slice(0, 3).join(', ');
    throw new CitegeistError(
      'RUN_UNKNOWN_IDS',
      `${unknown.size} distinct id(s) of the ${total} run lines in ${file} name no passage or paper of the indexed corpus (${examples}${unknown.size > 3 ? ', …' : ''}).`,
      'Index with the other engine what `citegeist export passages` writes (its ids are the ones citegeist resolves), or ingest and index the missing papers; then run this again.',
    );
  }
  return out;
}

/**
 * A retriever that answers from a resolved run instead of ranking: `topicOf` names the run topic
 * of a query (a request's or row's id); a query whose topic the run lacks gets no passages.
 */
export class RunRetriever implements Retriever {
  readonly id: string;
  constructor(
    private readonly ranked: ReadonlyMap<string, readonly ScoredPassage[]>,
    runId: string,
    private readonly topicOf: (query: string) => string | undefined,
  ) {
    this.id = `run:${runId || 'unnamed'}`;
  }

  /** The top k passages of `topic` in the run ([] when the run lacks it). */
  topic(topic: string, k: number): ScoredPassage[] {
    return (this.ranked.get(topic) ?? []).slice(0, k);
  }

  has(topic: string): boolean {
    return this.ranked.has(topic);
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const topic = this.topicOf(query);
    return topic === undefined ? [] : this.topic(topic, k);
  }
}
