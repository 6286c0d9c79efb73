import type { DatasetRow, Document } from '../core/index.js';
import {
  alternativeMatcher,
  type GradeRow,
  gradesPairwise,
  isRefusalRow,
  RESEARCHQA_METRICS,
  usableGroups,
} from '../grade/index.js';
import type { PairwiseTable } from '../stats/index.js';
import type { MatchMode } from '../text/index.js';
import { type GradesSource, type JoinedAnswer, joinAnswers, type RunSource } from './answer-join.js';
import { goldMatch, PaperEvidence, unlocated } from './paper-evidence.js';
import { type PaperTextMode, paperInfo, resolvePaperText } from './paper-excerpts.js';
import type {
  AnswerInfo,
  CitationInfo,
  MetricInfo,
  PaperInfo,
  QuestionInfo,
  RunInfo,
} from './report-data.js';
import { type AnswerCost, runInfo } from './run-stats.js';

export interface GradesSectionInput {
  grades: readonly GradesSource[];
  runs: readonly RunSource[];
  /** The dataset rows, or null when none was given (questions are then shown by id only). */
  dataset: readonly DatasetRow[] | null;
  papers: ReadonlyMap<string, Document>;
  paperText: PaperTextMode;
  seed: number;
  /** Metrics shown but not ranked (an uncertified judge's, under --require-agreement). */
  unranked?: ReadonlySet<string>;
}

export interface GradesSection {
  metrics: MetricInfo[];
  runs: RunInfo[];
  questions: QuestionInfo[];
  answers: AnswerInfo[];
  papers: PaperInfo[];
  notes: string[];
  /** Every pair of runs on every metric (`gradesPairwise`, as `citegeist leaderboard`); null under 2 runs. */
  pairwise: PairwiseTable | null;
}

/** The grading settings recorded in the grades manifests (defaults: the published ones). */
function gradingModes(grades: readonly GradesSource[], notes: string[]) {
  const quoteModes = new Set(grades.map((g) => String(g.manifest?.settings?.quote_mode ?? 'researchqa')));
  if (quoteModes.size > 1) {
    notes.push(
      `The grades files were graded with different quote modes (${[...quoteModes].join(', ')}); citations are located with the first.`,
    );
  }
  const quoteMode: MatchMode = [...quoteModes][0] === 'strict' ? 'strict' : 'researchqa';
  return { quoteMode };
}

/** Builds the ResearchQA part of a report: runs, questions, answers with their evidence, papers. */
export function buildGradesSection(input: GradesSectionInput): GradesSection {
  const notes: string[] = [];
  const { quoteMode } = gradingModes(input.grades, notes);
  const { answers: found, repeated } = joinAnswers(input.grades, input.runs);
  if (repeated > 0)
    notes.push(`${repeated} grades row(s) repeat a row id of their run: the later row is shown.`);
  const dataset = new Map((input.dataset ?? []).map((r) => [r.row_id, r]));
  const questions = new Questions(dataset, input.papers, quoteMode);
  const labels = [...new Set(found.map((a) => a.label))];
  const joined = inDatasetOrder(found, input.dataset ?? []);
  const answers: AnswerInfo[] = joined.map((a) => answerInfo(a, labels.indexOf(a.label), questions));
  notes.push(...questions.notes(input.dataset !== null));

  const metricDefs = RESEARCHQA_METRICS.filter((m) =>
    joined.some((a) => a.grade && (a.grade.row.status[m.id] ?? 'not-applicable') !== 'not-applicable'),
  );
  const runs = labels.map((label, i) => {
    const mine = joined.filter((a) => a.label === label);
    const grades = mine.flatMap((a) => (a.grade ? [a.grade.row] : []));
    const model = [...new Set(mine.map((a) => a.grade?.row.model ?? a.run?.model ?? ''))].join(', ');
    return runInfo({ label, model, colour: i }, grades, mine.map(costOf), metricDefs, input.seed);
  });
  const papers = questions.paperInfos(input.paperText, notes);
  dropEmbeddedNearest(answers, questions.list, papers);
  const graded = joined.flatMap((a) => (a.grade ? [{ ...a.grade.row, label: a.label }] : []));
  return {
    metrics: metricDefs.map((m) => ({
      id: m.id,
      label: m.label,
      description: m.description,
      higherIsBetter: m.higherIsBetter,
      range: m.range,
      kind: m.kind,
    })),
    runs,
    questions: questions.list,
    answers,
    papers,
    notes,
    pairwise: labels.length >= 2 ? gradesPairwise(graded, { seed: input.seed }, input.unranked) : null,
  };
}

/**
 * Answers with the dataset's rows first, in dataset order (then the others as found; the sort is
 * stable): questions are numbered in this order, so "dataset order" and the tie order of every
 * sort of the rows view is the dataset's.
 */
function inDatasetOrder(answers: readonly JoinedAnswer[], dataset: readonly DatasetRow[]): JoinedAnswer[] {
  const position = new Map(dataset.map((r, i) => [r.row_id, i]));
  const at = (a: JoinedAnswer) => position.get(a.rowId) ?? dataset.length;
  return [...answers].sort((x, y) => at(x) - at(y));
}

/** A nearest passage the paper's embedded text already holds is not stored a second time. */
function dropEmbeddedNearest(
  answers: AnswerInfo[],
  questions: readonly QuestionInfo[],
  papers: readonly PaperInfo[],
) {
  for (const a of answers) {
    const p = questions[a.q]?.p;
    if (p === null || p === undefined || papers[p]!.parts.length === 0) continue;
    for (const c of a.citations) if (c.near && c.near.m !== null) c.near.text = null;
  }
}

function costOf(a: JoinedAnswer): AnswerCost {
  const usage = a.run?.usage;
  return {
    cached: a.grade?.cached === true || a.run?.cached === true,
    failed: a.grade?.row.answer_failed === true || Boolean(a.run?.error),
    latencySeconds:
      a.grade?.row.latency_seconds ?? (a.run?.latency_ms != null ? a.run.latency_ms / 1000 : null),
    costUsd: a.grade?.row.cost_usd ?? a.run?.cost_usd ?? null,
    tokens: usage ? { input: usage.input_tokens, output: usage.output_tokens } : null,
  };
}

function answerInfo(a: JoinedAnswer, r: number, questions: Questions): AnswerInfo {
  const g = a.grade?.row;
  const q = questions.indexOf(a.rowId, g);
  const question = questions.list[q]!;
  // Only values and failures are embedded: a metric absent from both is not applicable.
  const scores: Record<string, number> = {};
  const status: Record<string, string> = {};
  if (g) {
    for (const m of RESEARCHQA_METRICS) {
      const v = (g as Record<string, unknown>)[m.id];
      if (typeof v === 'number') scores[m.id] = v;
      if (g.status[m.id] === 'failed') status[m.id] = 'failed';
    }
  }
  const cost = costOf(a);
  return {
    q,
    r,
    text: a.run ? a.run.answer : null,
    error: a.run?.error ?? (g?.answer_failed ? (g.errors.citation_accuracy ?? 'the answer failed') : null),
    cached: cost.cached,
    latency: cost.latencySeconds === null ? null : Math.round(cost.latencySeconds * 1000) / 1000,
    cost: cost.costUsd,
    scores,
    status,
    errors: g?.errors ?? {},
    nCitations: a.run ? a.run.citations.length : (g?.n_citations ?? 0),
    citations: a.run ? questions.citations(a, question) : [],
    judge:
      g && (g.judge || g.judge_justification)
        ? {
            by: g.judge,
            justification: g.judge_justification,
            grounding: a.grade?.grounding ?? null,
            ownFactual: a.grade?.judgeFactual ?? null,
          }
        : null,
    vet: null,
  };
}

/** The questions of a report, each with its paper's evidence (prepared once per paper). */
class Questions {
  readonly list: QuestionInfo[] = [];
  private readonly index = new Map<string, number>();
  private readonly evidence = new Map<string, PaperEvidence | null>();
  private readonly paperIndex = new Map<string, number>();
  private readonly rows = new Map<number, DatasetRow>();
  private bare = 0;

  constructor(
    private readonly dataset: ReadonlyMap<string, DatasetRow>,
    private readonly papers: ReadonlyMap<string, Document>,
    private readonly quoteMode: MatchMode,
  ) {}

  private paper(id: string): PaperEvidence | null {
    if (!this.evidence.has(id)) {
      const doc = this.papers.get(id);
      this.evidence.set(id, doc ? new PaperEvidence(doc, this.quoteMode) : null);
      if (doc) this.paperIndex.set(id, this.paperIndex.size);
    }
    return this.evidence.get(id) ?? null;
  }

  indexOf(rowId: string, grade: GradeRow | undefined): number {
    const known = this.index.get(rowId);
    if (known !== undefined) return known;
    const row = this.dataset.get(rowId);
    const paperId = row?.paper_id ?? grade?.paper_id ?? '';
    const evidence = paperId ? this.paper(paperId) : null;
    const groups = row ? usableGroups(row.expected_references) : [];
    const info: QuestionInfo = {
      id: rowId,
      p: evidence ? this.paperIndex.get(paperId)! : null,
      paperId,
      type: row?.question_type ?? grade?.question_type ?? '(unknown)',
      domain: row?.domain ?? grade?.domain ?? '',
      question: row?.question ?? '',
      expected: row?.expected_answer ?? '',
      groups: groups.map((gr) => ({
        label: gr.section_label,
        alts: gr.alternatives.map((t) => evidence?.gold(t) ?? { text: t, m: null, page: null }),
      })),
    };
    if (!row) {
      info.bare = true;
      this.bare++;
    } else this.rows.set(this.list.length, row);
    this.index.set(rowId, this.list.length);
    this.list.push(info);
    return this.list.length - 1;
  }

  citations(a: JoinedAnswer, question: QuestionInfo): CitationInfo[] {
    const run = a.run!;
    const row = this.rows.get(this.index.get(a.rowId)!);
    const evidence = question.paperId ? this.paper(question.paperId) : null;
    const rules = a.grade?.row.citation_rules ?? [];
    const mode =
      String(a.gradesFile?.manifest?.settings?.match ?? 'researchqa') === 'span' ? 'span' : 'researchqa';
    const match = alternativeMatcher(mode);
    const groups = row && !isRefusalRow(row) ? usableGroups(row.expected_references) : [];
    return run.citations.map((c, i) => {
      // The grader records rules in answer order; keys may repeat, so position decides.
      const recorded = rules.length === run.citations.length ? rules[i] : rules.find((x) => x.key === c.key);
      const located = evidence ? evidence.locate(c.quote, recorded) : unlocated(recorded);
      const gold = goldMatch(c.quote, groups, match, evidence?.quotes ?? null, mode === 'researchqa');
      return { key: c.key, quote: c.quote, ...located, gold };
    });
  }

  notes(haveDataset: boolean): string[] {
    const out: string[] = [];
    const missing = [...this.evidence].filter(([, e]) => e === null).map(([id]) => id);
    if (missing.length > 0) {
      out.push(
        `${missing.length} paper(s) not available, so their citations are not located: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}.`,
      );
    }
    if (haveDataset && this.bare > 0) out.push(`${this.bare} answered row(s) are not in the dataset.`);
    if (!haveDataset && this.list.length > 0)
      out.push('No dataset was given: questions are shown by row id only.');
    return out;
  }

  paperInfos(mode: PaperTextMode, notes: string[]): PaperInfo[] {
    const used = [...this.evidence.values()].filter((e): e is PaperEvidence => e !== null);
    const chars = used.reduce((n, e) => n + e.doc.text.length, 0);
    const resolved = resolvePaperText(mode, chars);
    if (mode === 'auto' && resolved === 'context') {
      notes.push(
        `The papers hold ${chars.toLocaleString('en')} characters: the report keeps the passages around each highlight (--paper-text full keeps whole papers).`,
      );
    }
    return used.map((e) => paperInfo(e.doc, e.marks, resolved));
  }
}
