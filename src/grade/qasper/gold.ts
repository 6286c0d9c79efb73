import { CitegeistError, quoteValue } from '../../core/index.js';
import { type QasperAnnotation, qasperAnswerText } from '../../generate/index.js';

/** The answer type the official evaluator reports Answer F1 by. */
export type QasperAnswerType = 'extractive' | 'abstractive' | 'boolean' | 'none';

/** One annotator's reference as the official evaluator sees it. */
export interface QasperReference {
  answer: string;
  evidence: string[];
  type: QasperAnswerType;
}

/** A QASPER annotation (`answers[].answer` in the native layout, `answers[]` in the flat one). */
export type QasperAnswer = QasperAnnotation;

/**
 * The official `get_answers_and_evidence` for one annotation: unanswerable → "Unanswerable" (type
 * none, no evidence); else extractive spans joined with ", ", else the free-form answer, else
 * "Yes"/"No". With `textEvidenceOnly`, evidence containing "FLOAT SELECTED" (tables and figures)
 * is dropped, as the official `--text_evidence_only` does (a substring test, not a prefix test).
 */
export function referenceOf(answer: QasperAnswer, textEvidenceOnly: boolean, where: string): QasperReference {
  if (answer.unanswerable) return { answer: 'Unanswerable', evidence: [], type: 'none' };
  const answered = qasperAnswerText(answer);
  if (!answered) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} gives no answer (not unanswerable, no spans, no free-form answer, no yes/no).`,
      'Fix or remove that annotation; the official evaluator rejects it too.',
    );
  }
  const evidence = textEvidenceOnly
    ? answer.evidence.filter((e) => !e.includes('FLOAT SELECTED'))
    : [...answer.evidence];
  return { answer: answered.text, evidence, type: answered.kind };
}

/**
 * References per question id from a gold file, in file order: the native layout
 * (`{paperId: {title, qas: [{question_id, answers: [{answer: {...}}]}]}}`) or the flat layout
 * (`[{question_id, answers: [{...}]}]`, e.g. `questions_validation.json`).
 */
export function goldReferences(
  data: unknown,
  textEvidenceOnly: boolean,
  file = 'gold',
): Map<string, QasperReference[]> {
  const out = new Map<string, QasperReference[]>();
  for (const { id, answers } of questionsOf(data, file)) {
    out.set(
      id,
      answers.map((a, i) => referenceOf(a, textEvidenceOnly, `${file}: question ${id} answer ${i + 1}`)),
    );
  }
  return out;
}

interface RawQuestion {
  id: string;
  answers: QasperAnswer[];
}

function questionsOf(data: unknown, file: string): RawQuestion[] {
  const qs: RawQuestion[] = [];
  if (Array.isArray(data)) {
    for (const q of data) qs.push(questionOf(q, file, false));
  } else if (data !== null && typeof data === 'object') {
    for (const [paperId, paper] of Object.entries(data as Record<string, unknown>)) {
      const qas = (paper as { qas?: unknown } | null)?.qas;
      if (!Array.isArray(qas)) throw badGold(file, `paper ${paperId} has no "qas" list`, paper);
      for (const q of qas) qs.push(questionOf(q, file, true));
    }
  } else {
    throw badGold(file, 'is neither a QASPER paper map nor a list of questions', data);
  }
  return qs;
}

function questionOf(q: unknown, file: string, nested: boolean): RawQuestion {
  const rec = (q ?? {}) as { question_id?: unknown; answers?: unknown };
  if (typeof rec.question_id !== 'string') throw badGold(file, 'a question has no "question_id"', q);
  if (!Array.isArray(rec.answers)) throw badGold(file, `question ${rec.question_id} has no "answers"`, q);
  const answers = rec.answers.map((a, i) => {
    const ans = nested ? (a as { answer?: unknown } | null)?.answer : a;
    return checkAnswer(ans, `${file}: question ${rec.question_id} answer ${i + 1}`);
  });
  return { id: rec.question_id, answers };
}

function checkAnswer(a: unknown, where: string): QasperAnswer {
  const r = (a ?? {}) as Record<string, unknown>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (
    typeof r.unanswerable !== 'boolean' ||
    !(r.yes_no === null || r.yes_no === undefined || typeof r.yes_no === 'boolean') ||
    !strings(r.extractive_spans ?? []) ||
    !strings(r.evidence ?? [])
  ) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} is not a QASPER answer: ${quoteValue(a)}.`,
      'Each answer needs unanswerable, yes_no, free_form_answer, extractive_spans and evidence.',
    );
  }
  return {
    unanswerable: r.unanswerable,
    yes_no: (r.yes_no as boolean | null | undefined) ?? null,
    free_form_answer: typeof r.free_form_answer === 'string' ? r.free_form_answer : '',
    extractive_spans: (r.extractive_spans as string[] | undefined) ?? [],
    evidence: (r.evidence as string[] | undefined) ?? [],
  };
}

function badGold(file: string, problem: string, value: unknown): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `The QASPER gold file ${file} ${problem}: ${quoteValue(value)}.`,
    'Give the native QASPER JSON (e.g. qasper-dev-v0.3.json) or a questions list with answers.',
  );
}
