/**
 * A GINGER-style bank for DoGMaTiQ's ablation: the top-k paraphrase clusters of a bank (most-common
 * order) each become a pseudo-nugget `cluster_summary_<i>` whose one answer is a model-written
 * summary of the cluster's answers, cited by the cluster's references — the shape of the released
 * GINGER banks (`question: "cluster_summary_i"`, `importance: "vital"`, OR, metadata
 * `{source: "ginger_cluster_summaries", cluster_index}`, bank metadata `{source,
 * num_cluster_summaries}`). The summaries come from DoGMaTiQ's clusters, not from GINGER's own
 * passage clustering: it isolates the effect of stating nuggets as summaries instead of QA pairs.
 */
import {
  answerEntries,
  type Creator,
  createNuggetBank,
  isQuestion,
  type NuggetBank,
  type NuggetQuestion,
  nuggetEntries,
  type Reference,
} from '../../formats/index.js';
import type { LlmProvider } from '../../llm/index.js';
import { orderedObject } from '../../python-compat/index.js';
import { type CallOutcome, callText } from './llm-step.js';
import { clusterSummaryPrompt } from './prompts/cluster-summary-prompt.js';
import { byCounts } from './select-nuggets.js';
import { type StepLog, stepKey } from './step-log.js';

export interface ClusterSummary {
  request_id: string;
  question: string;
  answers: string[];
  summary: string;
}

export interface GingerContext {
  llm: LlmProvider;
  log: StepLog<ClusterSummary>;
  creator: Creator;
  topK: number;
  onCall?: (outcome: CallOutcome) => void;
}

const gingerRequestId = (bank: NuggetBank): string => bank.query_id ?? bank.title_query;

/** The clusters a bank's GINGER-style bank summarises: its top-k answered nuggets, most-common first. */
export function gingerClusters(bank: NuggetBank, topK: number): NuggetQuestion[] {
  return byCounts(nuggetEntries(bank))
    .map((c) => c.nugget)
    .filter((n): n is NuggetQuestion => isQuestion(n) && answerEntries(n).length > 0)
    .slice(0, topK);
}

/** The summary calls a run would still make for a bank: the top clusters not yet logged. */
export function pendingGingerSummaries(
  bank: NuggetBank,
  topK: number,
  log: StepLog<ClusterSummary>,
): { question: string; answers: string[] }[] {
  const id = gingerRequestId(bank);
  return gingerClusters(bank, topK)
    .map((n) => ({ question: n.question, answers: answerEntries(n).map(([t]) => t) }))
    .filter((c) => !log.get(stepKey(id, c.question, ...c.answers)));
}

/** The GINGER-style bank of a bank, or the failed calls (rerun to retry). */
export async function gingerBank(
  bank: NuggetBank,
  ctx: GingerContext,
): Promise<{ bank: NuggetBank } | { failed: string[] }> {
  const id = gingerRequestId(bank);
  const top = gingerClusters(bank, ctx.topK);
  const failed: string[] = [];
  const summaries = await Promise.all(
    top.map(async (n) => {
      const answers = answerEntries(n).map(([t]) => t);
      const logged = ctx.log.get(stepKey(id, n.question, ...answers));
      if (logged) return logged.summary;
      const r = await callText(ctx.llm, clusterSummaryPrompt(n.question, answers), 200);
      ctx.onCall?.(r);
      if (!r.ok || r.text.trim() === '') {
        failed.push(`summary of ${JSON.stringify(n.question)}: ${r.ok ? 'empty reply' : r.reason}`);
        return null;
      }
      const summary = r.text.trim();
      ctx.log.put({ request_id: id, question: n.question, answers, summary });
      return summary;
    }),
  );
  if (failed.length) return { failed };
  const out = createNuggetBank({
    query_id: id,
    title_query: bank.title_query,
    ...(bank.full_query !== undefined ? { full_query: bank.full_query } : {}),
    creator: [ctx.creator],
    metadata: { source: 'ginger-style cluster summaries (citegeist)', num_cluster_summaries: top.length },
  });
  out.nugget_bank = orderedObject(
    top.map((n, i): [string, NuggetQuestion] => {
      const seen = new Set<string>();
      const references: Reference[] = answerEntries(n)
        .flatMap(([, a]) => a.references ?? [])
        .filter((r) => !seen.has(r.doc_id) && seen.add(r.doc_id));
      const summary = summaries[i]!;
      const question = `cluster_summary_${i + 1}`;
      return [
        question,
        {
          question,
          query_id: id,
          importance: 'vital',
          answers: { [summary]: { answer: summary, references } },
          aggregator_type: 'OR',
          metadata: {
            source: 'ginger_cluster_summaries',
            generated_from_passages: false,
            cluster_index: i + 1,
            cluster_question: n.question,
          },
        },
      ];
    }),
  );
  return { bank: out };
}
