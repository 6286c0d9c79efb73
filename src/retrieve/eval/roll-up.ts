import type { Run, RunEntry } from '../../formats/index.js';

/**
 * The document id of a passage id. citegeist passage ids are `<docId>#<n>` (n = 0-based passage
 * number within the document); an id without `#` is already a document id.
 */
export function docIdOfPassage(passageId: string): string {
  const hash = passageId.lastIndexOf('#');
  return hash < 0 ? passageId : passageId.slice(0, hash);
}

/**
 * Rolls a passage-level run up to document level: per topic, each document gets the maximum score
 * of its passages, so one run can be scored against passage qrels and against paper qrels.
 */
export function rollUpRun(run: Run, passageToDoc: (passageId: string) => string = docIdOfPassage): Run {
  const topics = new Map<string, RunEntry[]>();
  for (const [qid, entries] of run.topics) {
    const best = new Map<string, number>();
    for (const e of entries) {
      const doc = passageToDoc(e.docno);
      const prev = best.get(doc);
      if (prev === undefined || e.sim > prev) best.set(doc, e.sim);
    }
    topics.set(
      qid,
      [...best].map(([docno, sim]) => ({ docno, sim })),
    );
  }
  return { topics, runId: run.runId };
}
