import { idOf, isObject, type Json, list, num, obj, str } from './loose-records.js';
import type { ArgueNugget, ArgueReport, ArgueRunStats, ArgueSentence } from './report-data.js';

/** A nugget bank reduced to what the report shows. */
export interface BankNuggets {
  topic: string;
  nuggets: { question: string; aggregator: string; importance: string | null; answers: string[] }[];
}

const level = (v: unknown): string | null =>
  typeof v === 'number' || typeof v === 'string' ? String(v) : null;

/**
 * Reads a nugget bank loosely: v3 (`{query_id, title_query, nugget_bank: {question: {question,
 * answers: {answer: …}, aggregator_type, importance}}}`, claims as `{claim}`) or legacy v1
 * (`{query_id, items: [{question_text, info: {aggregator_type, importance}, gold_answers}]}`).
 * Null when the value is neither.
 */
export function bankNuggets(v: unknown): BankNuggets | null {
  if (!isObject(v)) return null;
  const topic = idOf(v.query_id) ?? str(v.title_query);
  if (topic === null) return null;
  if (isObject(v.nugget_bank)) {
    const nuggets = Object.values(v.nugget_bank)
      .filter(isObject)
      .map((n) => ({
        question: str(n.question) ?? str(n.claim) ?? '',
        aggregator: str(n.aggregator_type) ?? 'OR',
        importance: level(n.importance),
        answers: isObject(n.answers) ? Object.keys(n.answers) : [],
      }));
    return { topic, nuggets };
  }
  if (Array.isArray(v.items)) {
    const nuggets = v.items.filter(isObject).map((n) => ({
      question: str(n.question_text) ?? '',
      aggregator: str(obj(n.info).aggregator_type) ?? 'OR',
      importance: level(obj(n.info).importance),
      answers: list(n.gold_answers).map((a) => (isObject(a) ? (str(a.answer) ?? '') : String(a))),
    }));
    return { topic, nuggets };
  }
  return null;
}

/** The topic and run of a judged report's `report` line (RAGTIME, NeuCLIR or TREC RAG layout). */
function reportIds(report: Json): { topic: string; run: string; title: string | null } {
  const meta = obj(report.metadata);
  return {
    topic: idOf(meta.topic_id) ?? idOf(report.topic_id) ?? idOf(report.request_id) ?? '(no topic)',
    run: idOf(meta.run_id) ?? idOf(report.run_id) ?? '(no run)',
    title: str(report.topic) ?? str(meta.title) ?? null,
  };
}

const yesNo = (v: unknown): string => (v === true ? 'yes' : v === false ? 'no' : '?');

function sentenceOf(s: Json, nuggetAt: (question: string) => number): ArgueSentence {
  const citations = list(s.citations)
    .filter(isObject)
    .map((c) => ({
      doc: String(idOf(c.doc_id) ?? ''),
      attested: null as boolean | null,
      relevant: null as boolean | null,
      evidence: null as string | null,
      located: null as boolean | null,
    }));
  const byDoc = new Map(citations.map((c) => [c.doc, c]));
  const matched = new Map<number, Set<string>>();
  const flags: string[] = [];
  for (const j of list(s.judgments).filter(isObject)) {
    const r = obj(j.response);
    const doc = idOf(obj(j.provenance).doc_id) ?? idOf(r.doc_id);
    const cite = doc === null ? undefined : byDoc.get(doc);
    switch (str(j.judgment_type_id)) {
      case 'SENTENCE_ATTESTED':
        if (cite) {
          cite.attested = r.is_attested === true;
          cite.evidence = str(r.evidence_quote);
          cite.located = isObject(r.evidence) ? r.evidence.located === true : null;
        }
        break;
      case 'CITED_DOCUMENT_RELEVANCE':
        if (cite) cite.relevant = r.is_relevant === true;
        break;
      case 'SENTENCE_ANSWERS_QUESTION':
        for (const m of list(r.matched_nuggets).filter(isObject)) {
          const n = nuggetAt(str(m.question_text) ?? '');
          const answers = matched.get(n) ?? new Set<string>();
          for (const a of list(m.matched_answer)) answers.add(String(a));
          matched.set(n, answers);
        }
        break;
      case 'SENTENCE_REQUIRES_CITATION':
        flags.push(`requires a citation: ${yesNo(r.requires_citation)}`);
        break;
      case 'SENTENCE_FIRST_INSTANCE':
        flags.push(`first instance: ${yesNo(r.is_first_instance)}`);
        break;
      case 'SENTENCE_NEGATIVE_ASSERTION':
        flags.push(`negative assertion: ${yesNo(r.is_negative)}`);
        break;
    }
  }
  const failed = list(s.failed_judgments)
    .filter(isObject)
    .map((f) => {
      const doc = idOf(obj(f.provenance).doc_id);
      return `${str(f.judgment_type_id) ?? 'judgment'}${doc ? ` (${doc})` : ''}: ${str(f.reason) ?? 'failed'}`;
    });
  return {
    text: str(s.text) ?? '',
    citations,
    nuggets: [...matched].map(([n, answers]) => ({ n, answers: [...answers] })),
    failed,
    flags,
  };
}

/** One judged report, its sentences and its request's nuggets with the sentences that answered each. */
export function argueReport(row: Json, bank: BankNuggets | undefined): ArgueReport {
  const ids = reportIds(obj(row.report));
  const nuggets: ArgueNugget[] = (bank?.nuggets ?? []).map((n) => ({
    ...n,
    by: [],
    satisfied: false,
    unknown: false,
  }));
  const at = new Map(nuggets.map((n, i) => [n.question, i]));
  const nuggetAt = (question: string) => {
    let i = at.get(question);
    if (i === undefined) {
      i = nuggets.length;
      at.set(question, i);
      nuggets.push({
        question,
        aggregator: 'OR',
        importance: null,
        answers: [],
        by: [],
        satisfied: false,
        unknown: true,
      });
    }
    return i;
  };
  const sentences = list(row.judgments)
    .filter(isObject)
    .map((s) => sentenceOf(s, nuggetAt));
  for (const [si, s] of sentences.entries()) {
    for (const m of s.nuggets) nuggets[m.n]!.by.push({ s: si, answers: m.answers });
  }
  // Answers pooled over the report (METHODS §5 step 6): OR is met by any matched answer, AND when
  // every gold answer is matched; a nugget outside the bank is shown but never met.
  for (const n of nuggets) {
    const pooled = new Set(n.by.flatMap((b) => b.answers));
    n.satisfied =
      !n.unknown &&
      (n.aggregator === 'AND'
        ? n.answers.length > 0 && n.answers.every((a) => pooled.has(a))
        : pooled.size > 0);
  }
  const record = obj(row.citegeist);
  return {
    topic: ids.topic,
    run: ids.run,
    title: ids.title,
    sentences,
    nuggets,
    failed: sentences.reduce((n, s) => n + s.failed.length, 0),
    truncated: num(record.truncated_sentences) ?? 0,
  };
}

/** Per run: reports, sentences, citations attested of those judged, nuggets met of the bank, failures. */
export function argueRunStats(run: string, reports: readonly ArgueReport[]): ArgueRunStats {
  const cites = reports.flatMap((r) => r.sentences.flatMap((s) => s.citations));
  const known = reports.flatMap((r) => r.nuggets.filter((n) => !n.unknown));
  return {
    run,
    reports: reports.length,
    sentences: reports.reduce((n, r) => n + r.sentences.length, 0),
    citations: cites.length,
    judgedCitations: cites.filter((c) => c.attested !== null).length,
    attested: cites.filter((c) => c.attested === true).length,
    nuggets: known.length,
    nuggetsSatisfied: known.filter((n) => n.satisfied).length,
    failed: reports.reduce((n, r) => n + r.failed, 0),
  };
}

/** The ARGUE part of a report: each judged report (the later line wins for a run and topic). */
export function buildJudgmentsSection(rows: readonly Json[], banks: readonly BankNuggets[]) {
  const bankOf = new Map(banks.map((b) => [b.topic, b]));
  const reports = new Map<string, ArgueReport>();
  for (const row of rows) {
    const ids = reportIds(obj(row.report));
    reports.set(`${ids.run}\u0000${ids.topic}`, argueReport(row, bankOf.get(ids.topic)));
  }
  const list = [...reports.values()];
  const runs = [...new Set(list.map((r) => r.run))].map((run) =>
    argueRunStats(
      run,
      list.filter((r) => r.run === run),
    ),
  );
  return { runs, reports: list };
}
