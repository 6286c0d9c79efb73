import type { DatasetRow, EvidenceGroup, QuestionType } from '../core/index.js';
import { CitegeistError, quoteValue } from '../core/index.js';
import { type MarkdownSection, markdownSections, sectionLabelAt } from './markdown-sections.js';

/** One QASPER annotation, as in `questions_validation.json` (flat) or `answers[].answer` (native). */
export interface QasperAnnotation {
  unanswerable: boolean;
  yes_no: boolean | null;
  free_form_answer: string;
  extractive_spans: string[];
  evidence: string[];
  highlighted_evidence?: string[];
}

export interface QasperQuestion {
  paper_id: string;
  paper_title?: string;
  question_id: string;
  question: string;
  answers: QasperAnnotation[];
}

/** Where a paragraph sits: a function from evidence text to its section label (null: not found). */
export type SectionLocator = (paragraph: string) => string | null;

/** The label given to table/figure evidence (QASPER's "FLOAT SELECTED: Table 2: …"). */
export function floatLabel(evidence: string): string {
  const m = /^FLOAT SELECTED:\s*((?:Table|Figure|Fig\.?)\s*[A-Za-z]?\d+)/i.exec(evidence);
  return m?.[1] ? m[1].replace(/\s+/g, ' ') : 'Table/Figure';
}

/** A locator over a QASPER Markdown paper (`## A ::: B` headings). */
export function markdownLocator(text: string): SectionLocator {
  const sections: MarkdownSection[] = markdownSections(text);
  return (paragraph) => {
    let at = text.indexOf(paragraph);
    if (at < 0 && paragraph.length > 60) at = text.indexOf(paragraph.slice(0, 60));
    return at < 0 ? null : sectionLabelAt(sections, at);
  };
}

/** A locator over the native QASPER `full_text` ([{section_name, paragraphs}]). */
export function nativeLocator(
  fullText: { section_name: string | null; paragraphs: string[] }[],
): SectionLocator {
  return (paragraph) => {
    for (const s of fullText) if (s.paragraphs.includes(paragraph)) return s.section_name ?? '';
    // Trimmed copies of QASPER cut long paragraphs: fall back to a shared 40-character prefix.
    const head = paragraph.slice(0, 40);
    if (head.length < 40) return null;
    for (const s of fullText) if (s.paragraphs.some((p) => p.startsWith(head))) return s.section_name ?? '';
    return null;
  };
}

/**
 * The answer text of one annotation, as the official evaluator reads it: extractive spans joined
 * by ", ", else the free-form answer, else "Yes"/"No"; null when unanswerable or empty.
 */
export function qasperAnswerText(
  a: QasperAnnotation,
): { text: string; kind: 'extractive' | 'abstractive' | 'boolean' } | null {
  if (a.unanswerable) return null;
  if (a.extractive_spans.length > 0) return { text: a.extractive_spans.join(', '), kind: 'extractive' };
  if (a.free_form_answer) return { text: a.free_form_answer, kind: 'abstractive' };
  if (a.yes_no !== null) return { text: a.yes_no ? 'Yes' : 'No', kind: 'boolean' };
  return null;
}

/**
 * One QASPER question as a citegeist row.
 * - All annotators unanswerable → `adversarial` with `expected_refusal: true` and no evidence.
 * - Else the first answerable annotation decides: extractive or boolean → `lookup`, abstractive →
 *   `comprehension`; its answer text (spans joined by ", ", free form, or "Yes"/"No") is the
 *   expected answer and each of its evidence paragraphs becomes one evidence group (ANDed, as
 *   QASPER's evidence set is) labelled with the paragraph's section; table/figure evidence gets a
 *   "Table 2"-style label. Every annotation is kept in `metadata.qasper_answers`, and
 *   `metadata.question_id` lets predictions be written in the official format.
 */
export function qasperQuestionToRow(q: QasperQuestion, locate: SectionLocator): DatasetRow {
  const answered = q.answers.map(qasperAnswerText);
  const primaryIndex = answered.findIndex((a) => a !== null);
  const primary = primaryIndex >= 0 ? answered[primaryIndex] : null;
  let questionType: QuestionType = 'adversarial';
  if (primary) questionType = primary.kind === 'abstractive' ? 'comprehension' : 'lookup';
  const unlocated: string[] = [];
  const groups: EvidenceGroup[] = [];
  const evidence = primary ? (q.answers[primaryIndex]?.evidence ?? []) : [];
  for (const paragraph of new Set(evidence)) {
    if (paragraph.trim() === '') continue;
    let label = paragraph.startsWith('FLOAT SELECTED') ? floatLabel(paragraph) : locate(paragraph);
    if (label === null) {
      unlocated.push(paragraph.slice(0, 80));
      label = '';
    }
    groups.push({ section_label: label, alternatives: [paragraph] });
  }
  return {
    row_id: `${q.paper_id}_${q.question_id}`,
    paper_id: q.paper_id,
    domain: 'nlp',
    question_type: questionType,
    question: q.question,
    expected_answer: primary ? primary.text : 'The paper does not answer this question.',
    expected_references: groups,
    judge_rubric: [],
    required_sections: [...new Set(groups.map((g) => g.section_label).filter((l) => l !== ''))],
    reasoning_chain: null,
    false_premise: null,
    expected_refusal: primary ? null : true,
    metadata: {
      source: 'qasper',
      question_id: q.question_id,
      ...(q.paper_title ? { paper_title: q.paper_title } : {}),
      qasper_answer_type: primary ? primary.kind : 'none',
      qasper_answers: q.answers,
      ...(unlocated.length > 0 ? { unlocated_evidence: unlocated } : {}),
    },
  };
}

/** Validates one raw QASPER question (flat layout) or throws naming where it came from. */
export function checkQasperQuestion(value: unknown, where: string): QasperQuestion {
  const q = (value ?? {}) as Record<string, unknown>;
  const ok =
    typeof q.paper_id === 'string' &&
    typeof q.question_id === 'string' &&
    typeof q.question === 'string' &&
    Array.isArray(q.answers) &&
    q.answers.every((a) => isAnnotation(a));
  if (!ok) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} is not a QASPER question: ${quoteValue(value)}.`,
      'Each question needs paper_id, question_id, question and answers [{unanswerable, yes_no, free_form_answer, extractive_spans, evidence}].',
    );
  }
  return q as unknown as QasperQuestion;
}

function isAnnotation(a: unknown): boolean {
  const r = (a ?? {}) as Record<string, unknown>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  return (
    typeof r.unanswerable === 'boolean' &&
    (r.yes_no === null || typeof r.yes_no === 'boolean') &&
    typeof r.free_form_answer === 'string' &&
    strings(r.extractive_spans) &&
    strings(r.evidence)
  );
}
