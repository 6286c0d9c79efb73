import {
  answerEntries,
  type Creator,
  isQuestion,
  type NuggetBank,
  nuggetEntries,
} from '../../formats/index.js';
import { mean, median } from '../../stats/index.js';

/** Per-bank figures for `nuggets stats`: nuggets, answers per nugget, AND/OR, references, sources. */
export function bankStats(bank: NuggetBank) {
  const entries = nuggetEntries(bank);
  const questions = entries.filter(([, n]) => isQuestion(n));
  const answers = questions.map(([, n]) => (isQuestion(n) ? answerEntries(n).length : 0));
  const docs = new Set<string>();
  let references = 0;
  for (const [, n] of questions) {
    if (!isQuestion(n)) continue;
    for (const [, a] of answerEntries(n)) {
      for (const r of a.references ?? []) {
        references++;
        docs.add(r.doc_id);
      }
    }
  }
  const aggregators: Record<string, number> = {};
  for (const [, n] of entries) {
    const agg = n.aggregator_type ?? 'OR (unset)';
    aggregators[agg] = (aggregators[agg] ?? 0) + 1;
  }
  const creators = new Map<string, number>();
  for (const [, n] of entries) {
    const list = n.creator == null ? [] : Array.isArray(n.creator) ? n.creator : [n.creator];
    const names = list.length ? list.map(creatorName) : ['(none)'];
    for (const c of new Set(names)) creators.set(c, (creators.get(c) ?? 0) + 1);
  }
  const totals = entries
    .map(([, n]) => n.metadata?.num_paraphrases_total)
    .filter((v): v is number => typeof v === 'number');
  return {
    request: bank.query_id ?? null,
    nuggets: entries.length,
    questions: questions.length,
    claims: entries.length - questions.length,
    answers: answers.reduce((a, b) => a + b, 0),
    answers_per_nugget: answers.length
      ? { mean: mean(answers), median: median(answers), max: Math.max(...answers) }
      : null,
    aggregators,
    references,
    cited_documents: docs.size,
    sources: Object.fromEntries(creators),
    paraphrases_total: totals.length ? totals.reduce((a, b) => a + b, 0) : null,
    with_quality: entries.filter(([, n]) => n.metadata?.quality != null).length,
  };
}

function creatorName(c: Creator): string {
  if (c.is_human) return `human${c.assessor_id ? ` (${c.assessor_id})` : ''}`;
  return `model ${c.llm_model ?? '?'}`;
}
