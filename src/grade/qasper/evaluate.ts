import { CitegeistError, location, quoteValue } from '../../core/index.js';
import { parseJsonl } from '../../io/index.js';
import { tokenF1 } from './answer-f1.js';
import { evidenceF1 } from './evidence-f1.js';
import type { QasperAnswerType, QasperReference } from './gold.js';

/** One prediction in the official format. */
export interface QasperPrediction {
  question_id: string;
  predicted_answer: string;
  predicted_evidence: string[];
}

/** The official evaluator's output, key for key. */
export interface QasperScores {
  'Answer F1': number;
  'Answer F1 by type': Record<QasperAnswerType, number>;
  'Evidence F1': number;
  'Missing predictions': number;
}

/**
 * The official `evaluate`: per gold question, the best Answer F1 over its references (ties go to
 * the first reference, whose type it is counted under, as Python's stable sort does) and the best
 * Evidence F1; a missing prediction scores 0 for both and is counted. Means are plain left-to-right
 * sums over questions in gold order divided by the count (0 when empty).
 */
export function evaluateQasper(
  gold: ReadonlyMap<string, readonly QasperReference[]>,
  predicted: ReadonlyMap<string, { answer: string; evidence: readonly string[] }>,
): QasperScores {
  const answerF1s: number[] = [];
  const evidenceF1s: number[] = [];
  const byType: Record<QasperAnswerType, number[]> = {
    extractive: [],
    abstractive: [],
    boolean: [],
    none: [],
  };
  let missing = 0;
  for (const [id, references] of gold) {
    const p = predicted.get(id);
    if (!p) {
      missing++;
      answerF1s.push(0);
      evidenceF1s.push(0);
      continue;
    }
    if (references.length === 0) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `Gold question ${id} has no answers.`,
        'Remove it from the gold file.',
      );
    }
    let best = -1;
    let bestType: QasperAnswerType = 'none';
    let bestEvidence = Number.NEGATIVE_INFINITY;
    for (const ref of references) {
      const f1 = tokenF1(p.answer, ref.answer);
      if (f1 > best) {
        best = f1;
        bestType = ref.type;
      }
      bestEvidence = Math.max(bestEvidence, evidenceF1(p.evidence, ref.evidence));
    }
    answerF1s.push(best);
    byType[bestType].push(best);
    evidenceF1s.push(bestEvidence);
  }
  return {
    'Answer F1': pyMean(answerF1s),
    'Answer F1 by type': {
      extractive: pyMean(byType.extractive),
      abstractive: pyMean(byType.abstractive),
      boolean: pyMean(byType.boolean),
      none: pyMean(byType.none),
    },
    'Evidence F1': pyMean(evidenceF1s),
    'Missing predictions': missing,
  };
}

/** `sum(x) / len(x) if x else 0.0` with left-to-right float addition. */
function pyMean(xs: readonly number[]): number {
  if (xs.length === 0) return 0.0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/**
 * Reads a predictions JSONL file as the official script does (a later line for the same question
 * id replaces an earlier one). A malformed line is an error naming the file and line.
 */
export function parseQasperPredictions(
  text: string,
  file = 'predictions',
): Map<string, { answer: string; evidence: string[] }> {
  const out = new Map<string, { answer: string; evidence: string[] }>();
  for (const entry of parseJsonl(text)) {
    if (!entry.ok) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${location(file, entry.line)} is not JSON (${entry.error}).`,
        'Each line must be {"question_id", "predicted_answer", "predicted_evidence"}.',
      );
    }
    const v = (entry.value ?? {}) as Partial<QasperPrediction>;
    const evidenceOk =
      Array.isArray(v.predicted_evidence) && v.predicted_evidence.every((e) => typeof e === 'string');
    if (typeof v.question_id !== 'string' || typeof v.predicted_answer !== 'string' || !evidenceOk) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${location(file, entry.line)} is not a QASPER prediction: ${quoteValue(entry.value)}.`,
        'Each line must be {"question_id": string, "predicted_answer": string, "predicted_evidence": string[]}.',
      );
    }
    out.set(v.question_id, { answer: v.predicted_answer, evidence: v.predicted_evidence as string[] });
  }
  return out;
}
