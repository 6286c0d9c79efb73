import type { RunRetriever } from '../retrieve/index.js';
import type { ContextPassage, PassageSource } from './passage-source.js';

/**
 * Context from another engine's TREC run (`--retrieved run.trec`): the passages the run ranked for
 * the row's id (its topic), resolved to their text by `text`; a row the run has no topic for gets
 * no passages.
 */
export function runPassages(
  run: RunRetriever,
  text: (id: string) => { text: string; label: string } | undefined,
): PassageSource {
  return {
    id: run.id,
    needsPaper: false,
    async passages({ row }, k) {
      const out: ContextPassage[] = [];
      for (const hit of run.topic(row.row_id, k)) {
        const resolved = text(hit.id);
        if (resolved) out.push({ ...resolved, rank: out.length });
      }
      return out;
    },
  };
}
