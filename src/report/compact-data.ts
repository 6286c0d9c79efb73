import type { AnswerInfo, CitationInfo, ReportData } from './report-data.js';

/**
 * The embedded form of a report's data: answer and citation fields at their default value are left
 * out (a report of 5 runs × 1,000 rows holds 10,000 citations, most of them found, on no gold
 * miss), and the page's script puts them back (`expand` in assets/report/script/core.js) before anything is shown.
 * Defaults: `strict` = `rule`; `prefixOnly` false; `nCitations` = the citations' count; `cached`
 * false; `status` and `errors` {}; every other left-out field null.
 */
export function compactData(data: ReportData): unknown {
  // The pairwise table is rendered into the overview's HTML; the script does not read it.
  const { pairwise: _, ...rest } = data;
  return { ...rest, answers: data.answers.map(compactAnswer) };
}

const NULLABLE_ANSWER = ['error', 'latency', 'cost', 'judge', 'vet'] as const;
const NULLABLE_CITATION = ['m', 'page', 'section', 'near', 'gold'] as const;

function compactAnswer(a: AnswerInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { q: a.q, r: a.r, text: a.text, scores: a.scores };
  for (const k of NULLABLE_ANSWER) if (a[k] !== null) out[k] = a[k];
  if (a.cost !== null) out.cost = Number(a.cost.toPrecision(6));
  if (a.cached) out.cached = true;
  if (Object.keys(a.status).length) out.status = a.status;
  if (Object.keys(a.errors).length) out.errors = a.errors;
  if (a.nCitations !== a.citations.length) out.nCitations = a.nCitations;
  if (a.citations.length) out.citations = a.citations.map(compactCitation);
  return out;
}

function compactCitation(c: CitationInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { key: c.key, quote: c.quote, rule: c.rule };
  if (c.strict !== c.rule) out.strict = c.strict;
  if (c.prefixOnly) out.prefixOnly = true;
  for (const k of NULLABLE_CITATION) if (c[k] !== null) out[k] = c[k];
  return out;
}
