import { parseJsonl, takeManifest } from '../../io/index.js';
import { type BootstrapInterval, bootstrapCI } from '../../stats/index.js';
import type { HumanItem } from '../human-labels/index.js';
import type { CallOptions } from '../vetscore/index.js';
import { field, type SetJudge, type SetJudgment } from './set-judge.js';

/**
 * Neutral padding of the same topic: the question restated and a sentence that adds nothing. An
 * unbiased judge scores the padded answer as the original.
 */
export function padAnswer(answer: string, question: string): string {
  const restated = question.trim() === '' ? 'the question above' : `"${question.trim()}"`;
  return `${answer}\n\nTo put it in context: this answer responds to ${restated}. The points made above are the answer to it, and what follows from them is the same.`;
}

/** The same judge shown padded answers (`answer`, or both answers of a pair). */
export class PaddedJudge implements SetJudge {
  readonly model: string;
  readonly family: string | null;
  readonly kind: string;
  readonly promptVersion: string;

  constructor(private readonly inner: SetJudge) {
    this.model = inner.model;
    this.family = inner.family;
    this.kind = `${inner.kind}+verbosity-padding`;
    this.promptVersion = inner.promptVersion;
  }

  private pad(item: HumanItem): HumanItem {
    const q = field(item, 'question');
    const inputs = { ...item.inputs };
    for (const key of ['answer', 'answer_1', 'answer_2']) {
      if (typeof inputs[key] === 'string') inputs[key] = padAnswer(inputs[key] as string, q);
    }
    return { ...item, inputs };
  }

  requests(item: HumanItem) {
    return this.inner.requests(this.pad(item));
  }

  judge(item: HumanItem, call: CallOptions): Promise<SetJudgment> {
    return this.inner.judge(this.pad(item), call);
  }
}

/** The verbosity probe on a card: how much padding moved the judge's pointwise scores. */
export interface VerbosityProbe {
  /** Scores compared (one per answer: a pair gives two). */
  scores: number;
  mean_original: number;
  mean_padded: number;
  /** Mean of padded − original, with its interval; positive = the judge rewards length. */
  shift: BootstrapInterval;
}

/** Each item's pointwise scores in a judgments file (labels, or both answers' scores). */
export function pointwiseScores(text: string, path: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of takeManifest(parseJsonl(text), path, false).rows) {
    if (!line.ok) continue;
    const row = line.value as { id?: unknown; status?: unknown; label?: unknown; answer_scores?: unknown };
    if (row.status !== 'scored' || typeof row.id !== 'string') continue;
    if (Array.isArray(row.answer_scores)) out.set(row.id, row.answer_scores as number[]);
    else if (typeof row.label === 'number') out.set(row.id, [row.label]);
  }
  return out;
}

/**
 * Compares the scores of the same answers judged as written and padded (items scored both times),
 * with a percentile bootstrap interval of the mean shift. Null when no answer was scored twice.
 */
export function verbosityProbe(
  original: Map<string, number[]>,
  padded: Map<string, number[]>,
  boot: { iterations: number; seed: number; confidence: number },
): VerbosityProbe | null {
  const a: number[] = [];
  const b: number[] = [];
  for (const [id, scores] of original) {
    const other = padded.get(id);
    if (!other || other.length !== scores.length) continue;
    a.push(...scores);
    b.push(...other);
  }
  if (a.length === 0) return null;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    scores: a.length,
    mean_original: mean(a),
    mean_padded: mean(b),
    shift: bootstrapCI(
      b.map((v, i) => v - a[i]!),
      undefined,
      boot,
    ),
  };
}
