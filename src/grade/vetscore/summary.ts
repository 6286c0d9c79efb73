import {
  type BootstrapInterval,
  type JudgeVariance,
  judgeVariance,
  keyedMeanInterval,
} from '../../stats/index.js';
import { isEmptyQuote } from '../../text/index.js';
import { type EvidenceTally, mergeTallies, renderEvidenceTally } from '../evidence-grounding.js';
import { type AnswerGrade, coverageRate, type UnsupportedClaim } from './grade-answer.js';
import { repeatScores } from './repeat-scores.js';

/** The batch summary of `grade faithfulness`: n, mean score with its CI, coverage and failures. */
export interface FaithfulnessSummary {
  answers: number;
  scored: number;
  not_applicable: number;
  failed: number;
  /** Mean score over scored answers; null when none. */
  mean_score: number | null;
  /** 95% percentile bootstrap CI of the mean (10,000 resamples, seed 0). */
  ci: { lower: number | null; upper: number | null } | null;
  segments: number;
  segments_failed: number;
  claims: number;
  claims_scored: number;
  claims_failed: number;
  /** claims_scored / (claims + segments_failed) over all answers (a failed segment is not covered). */
  coverage: number | null;
  /** Run-to-run agreement pooled over answers (only with repeats). */
  agreement?: { claims: number; verification_identical: number | null; harm_identical: number | null };
  /**
   * The judge's own noise on the answers' scores (only with repeats): each scored answer scored by
   * each repeat alone (`repeatScores`), then the mean within-answer sd and the share of answers
   * whose score changed between repeats (`judgeVariance`).
   */
  judge_noise?: JudgeVariance;
  /** Per verification judge model: verdicts that claimed support, located and unverified. */
  evidence: EvidenceTally[];
  /** Whether unverified support was counted as support (any answer graded with the flag). */
  trust_unlocated_evidence: boolean;
}

/** Resamples of the faithfulness interval (`grade faithfulness` and the report alike). */
export const FAITHFULNESS_ITERATIONS = 10_000;

/**
 * The mean faithfulness score of the scored answers with its 95% bootstrap interval, in answer-id
 * order (`keyedMeanInterval`): `grade faithfulness` and the report's VETSCORE view both call it, so
 * one output file gives one figure. Null when no answer was scored.
 */
export function faithfulnessInterval(
  answers: readonly { id: string; status: string; score: number | null }[],
  seed = 0,
): BootstrapInterval | null {
  const scored = answers.filter((g) => g.status === 'scored' && g.score !== null);
  if (scored.length === 0) return null;
  return keyedMeanInterval(
    scored.map((g) => g.id),
    scored.map((g) => g.score!),
    { seed, iterations: FAITHFULNESS_ITERATIONS },
  );
}

export function summarizeFaithfulness(grades: AnswerGrade[]): FaithfulnessSummary {
  const scores = grades.flatMap((g) => (g.status === 'scored' && g.score !== null ? [g.score] : []));
  const sum = (f: (g: AnswerGrade) => number) => grades.reduce((a, g) => a + f(g), 0);
  const claims = sum((g) => g.coverage.claims);
  const claimsScored = sum((g) => g.coverage.claims_scored);
  const ci = faithfulnessInterval(grades);
  const summary: FaithfulnessSummary = {
    answers: grades.length,
    scored: scores.length,
    not_applicable: grades.filter((g) => g.status === 'not-applicable').length,
    failed: grades.filter((g) => g.status === 'failed').length,
    mean_score: ci?.estimate ?? null,
    ci: ci ? { lower: ci.lower, upper: ci.upper } : null,
    segments: sum((g) => g.coverage.segments),
    segments_failed: sum((g) => g.coverage.segments_failed),
    claims,
    claims_scored: claimsScored,
    claims_failed: claims - claimsScored,
    coverage: coverageRate(
      claimsScored,
      claims,
      sum((g) => g.coverage.segments_failed),
    ),
    // Rows written before evidence grounding carry no tally (their support was never checked).
    evidence: mergeTallies(grades.map((g) => g.evidence ?? [])),
    trust_unlocated_evidence: grades.some((g) => g.trust_unlocated_evidence === true),
  };
  const withAgreement = grades.filter((g) => g.agreement !== undefined);
  if (withAgreement.length > 0) {
    const n = withAgreement.reduce((a, g) => a + (g.agreement?.verification.claims ?? 0), 0);
    const pooled = (key: 'verification' | 'harm') => {
      const total = withAgreement.reduce((a, g) => a + (g.agreement?.[key].claims ?? 0), 0);
      const same = withAgreement.reduce(
        (a, g) => a + (g.agreement?.[key].claims ?? 0) * (g.agreement?.[key].identical ?? 0),
        0,
      );
      return total === 0 ? null : same / total;
    };
    summary.agreement = {
      claims: n,
      verification_identical: pooled('verification'),
      harm_identical: pooled('harm'),
    };
    summary.judge_noise = judgeVariance(perAnswerRepeats(grades));
  }
  return summary;
}

function perAnswerRepeats(grades: readonly AnswerGrade[]): number[][] {
  return grades.flatMap((g) => {
    const r = repeatScores(g);
    return r ? [r] : [];
  });
}

/** Every unsupported claim of a batch, highest harm first (METHODS §3.7). */
export function unsupportedAcross(grades: AnswerGrade[]): (UnsupportedClaim & { answer: string })[] {
  return grades
    .flatMap((g) => g.unsupported.map((u) => ({ answer: g.id, ...u })))
    .sort(
      (a, b) => b.w - a.w || a.answer.localeCompare(b.answer) || a.segment - b.segment || a.claim - b.claim,
    );
}

const fmt = (x: number | null, digits = 3) => (x === null ? 'n/a' : x.toFixed(digits));

/** The summary as a plain-text table for the terminal. */
export function renderFaithfulnessSummary(s: FaithfulnessSummary): string {
  const rows: [string, string][] = [
    ['answers', `${s.answers} (scored ${s.scored}, not applicable ${s.not_applicable}, failed ${s.failed})`],
    ['mean score', s.ci ? `${fmt(s.mean_score)}  95% CI [${fmt(s.ci.lower)}, ${fmt(s.ci.upper)}]` : 'n/a'],
    ['claims', `${s.claims} (scored ${s.claims_scored}, failed ${s.claims_failed})`],
    [
      'coverage',
      s.coverage === null
        ? 'n/a'
        : `${(s.coverage * 100).toFixed(1)}% of claims scored (a segment whose decomposition failed counts as one claim not scored)`,
    ],
    ['segments', `${s.segments} (decomposition failed ${s.segments_failed})`],
  ];
  if (s.agreement) {
    rows.push([
      'repeat agreement',
      `verdict identical ${fmt(s.agreement.verification_identical)}, harm identical ${fmt(s.agreement.harm_identical)} (${s.agreement.claims} claims)`,
    ]);
  }
  if (s.judge_noise && s.judge_noise.items > 0) {
    const share = s.judge_noise.verdictChangeShare;
    rows.push([
      'judge noise',
      `${s.judge_noise.repeats} repeats: within-answer sd ${fmt(s.judge_noise.withinItemSd)}; score changed between repeats on ${share === null ? 'n/a' : `${(share * 100).toFixed(1)}%`} of ${s.judge_noise.items} answers`,
    ]);
  }
  for (const line of renderEvidenceTally(s.evidence, s.trust_unlocated_evidence))
    rows.push(['unverified', line]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

function clip(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The unsupported claims as text lines, highest harm first (at most `limit`). */
export function renderUnsupported(list: ReturnType<typeof unsupportedAcross>, limit = 20): string {
  if (list.length === 0) return 'no unsupported claims\n';
  const lines = list.slice(0, limit).map((u) => {
    const line = `  w=${u.w} ${u.verdict ?? ''}  ${u.answer} §${u.segment}.${u.claim}  ${u.text}`;
    if (u.verdict !== 'unverified') return line;
    // An unverified verdict: the judge's quote was not found; show what the excerpts say nearest to it.
    if (u.evidence_quote == null || isEmptyQuote(u.evidence_quote))
      return `${line}\n      no evidence quote given`;
    const near = u.nearest
      ? `nearest passage [${u.nearest.key}] "${clip(u.nearest.text)}"`
      : 'no excerpt shares a word with it';
    return `${line}\n      quote not found: "${clip(u.evidence_quote)}"; ${near}`;
  });
  const more = list.length > limit ? `\n  … ${list.length - limit} more in the output file` : '';
  return `unsupported claims by harm (${list.length}):\n${lines.join('\n')}${more}\n`;
}
