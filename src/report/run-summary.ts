import type { DatasetRow, Document, RunRow } from '../core/index.js';
import { pageAt, sectionAt } from '../core/index.js';
import { type GradeRow, type ModelSummary, RESEARCHQA_METRICS } from '../grade/index.js';
import { matchQuote, preparePaper } from '../text/index.js';
import type { HtmlSummaryInput, SummaryCitation, SummaryModel, SummaryRow } from './html-summary.js';

export interface RunSummaryInput {
  title: string;
  facts: [string, string][];
  dataset: readonly DatasetRow[];
  runs: readonly RunRow[];
  grades: readonly GradeRow[];
  models: readonly ModelSummary[];
  /** The papers by id, to locate each citation (page, section) for the report. */
  papers: ReadonlyMap<string, Document>;
  generatedAt?: string;
}

/**
 * Joins a dataset, its runs and their grades into the HTML summary's rows: every citation is
 * located in its paper with the same PDF-aware matcher the grader uses, so the report shows where
 * each quote was found (page and section) or that it was not.
 */
export function buildRunSummary(input: RunSummaryInput): HtmlSummaryInput {
  const questions = new Map(input.dataset.map((r) => [r.row_id, r]));
  const grades = new Map(input.grades.map((g) => [`${g.model}\u0000${g.row_id}`, g]));
  const prepared = new Map<string, ReturnType<typeof preparePaper>>();
  const locate = (paperId: string, quote: string): Omit<SummaryCitation, 'key' | 'quote'> => {
    const doc = input.papers.get(paperId);
    if (!doc) return { found: false };
    let paper = prepared.get(paperId);
    if (!paper) {
      paper = preparePaper(doc.text, { skippable: doc.markers });
      prepared.set(paperId, paper);
    }
    const match = matchQuote(paper, quote, { mode: 'researchqa', nearest: false });
    const start = match.spans[0]?.start;
    if (!match.matched || start === undefined) return { found: false };
    return {
      found: true,
      rule: match.rule,
      page: pageAt(doc, start),
      section: sectionAt(doc, start)?.heading ?? null,
    };
  };
  const metricIds = RESEARCHQA_METRICS.map((m) => m.id);
  const rows: SummaryRow[] = [];
  for (const run of input.runs) {
    const question = questions.get(run.row_id);
    if (!question) continue;
    const grade = grades.get(`${run.model}\u0000${run.row_id}`);
    rows.push({
      rowId: run.row_id,
      model: run.model,
      paperId: question.paper_id,
      questionType: question.question_type,
      question: question.question,
      expectedAnswer: question.expected_answer,
      answer: run.answer,
      error: run.error,
      citations: run.citations.map((c) => ({
        key: c.key,
        quote: c.quote,
        ...locate(question.paper_id, c.quote),
      })),
      scores: Object.fromEntries(
        metricIds.map((id) => [id, grade ? ((grade as Record<string, unknown>)[id] as number | null) : null]),
      ),
    });
  }
  const models: SummaryModel[] = input.models.map((m) => ({
    model: m.model,
    rows: m.overall.rows,
    answerFailures: m.overall.answerFailures,
    metrics: Object.fromEntries(
      Object.entries(m.overall.metrics).map(([id, s]) => [
        id,
        { mean: s.mean, n: s.n, ci: s.ci, failed: s.failed },
      ]),
    ),
  }));
  return {
    title: input.title,
    generatedAt: input.generatedAt ?? new Date().toISOString(),
    facts: input.facts,
    metrics: RESEARCHQA_METRICS.map((m) => ({ id: m.id, label: m.label })),
    models,
    rows,
  };
}
