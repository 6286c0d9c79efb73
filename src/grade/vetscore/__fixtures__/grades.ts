import type { AnswerGrade, SegmentResult } from '../grade-answer.js';
import type { HarmLevel } from '../harm.js';

/** A minimal AnswerGrade from per-segment claims `[v, w]` (null = a failed claim). */
export function gradeFrom(id: string, segments: ([0 | 1, HarmLevel] | null)[][]): AnswerGrade {
  const segs: SegmentResult[] = segments.map((claims, s) => ({
    index: s,
    text: `segment ${s}`,
    start: 0,
    end: 0,
    keys: [],
    excerpt_keys: [],
    problems: [],
    status: 'scored',
    penalty: null,
    claims: claims.map((c, i) => ({
      index: i,
      text: `${id} claim ${s}.${i}`,
      status: c ? 'scored' : 'failed',
      v: c ? c[0] : null,
      w: c ? c[1] : null,
      verdict: c ? (c[0] ? 'supported' : 'unsupported') : null,
      rationale: null,
      harm_rationale: null,
      evidence_quote: null,
      span: null,
      nearest: null,
    })),
  }));
  const n = segs.reduce((a, s) => a + s.claims.length, 0);
  const scored = segs.reduce((a, s) => a + s.claims.filter((c) => c.status === 'scored').length, 0);
  return {
    id,
    question: '',
    status: 'scored',
    score: null,
    p: 2.426,
    mode: 'separate',
    repeats: 1,
    judges: { decomposer: 'f', verifier: 'f', harm: 'f' },
    trust_unlocated_evidence: false,
    evidence: [],
    segments: segs,
    coverage: { segments: segs.length, segments_failed: 0, claims: n, claims_scored: scored, claims_failed: n - scored, rate: n ? scored / n : null },
    failures: [],
    unsupported: [],
  };
}
