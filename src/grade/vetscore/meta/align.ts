import type { AnswerGrade } from '../grade-answer.js';
import type { Annotation } from './annotations.js';

/** One claim as both sides see it, keyed by (answer, segment index, claim index). */
export interface AlignedClaim {
  key: string;
  answer: string;
  segment: number;
  claim: number;
  /** The judge's scored judgment per --auto run (null: absent or failed in that run). */
  auto: ({ v: 0 | 1; w: number } | null)[];
  /** Human judgments by annotator. */
  human: Map<string, { verified: 0 | 1 | null; harm: number | null }>;
}

export interface Alignment {
  claims: AlignedClaim[];
  annotators: string[];
  /** Annotated claims the first run does not have (or did not score): listed, left out of judge-vs-human figures. */
  humanOnly: { answer: string; segment: number; claim: number }[];
  /** Scored claims of the first run that no annotator rated. */
  autoOnly: number;
}

export const claimKey = (answer: string, segment: number, claim: number) =>
  `${answer}\u0000${segment}\u0000${claim}`;

/**
 * Aligns judge output and annotations by (answer id, segment index, claim index): annotators rate
 * the judge's own segments and claims, as in the VETSCORE study. Claims are matched on position,
 * not text, so annotations must be made on the same output file (`grade faithfulness --out`).
 */
export function alignClaims(runs: AnswerGrade[][], annotations: Annotation[]): Alignment {
  const byKey = new Map<string, AlignedClaim>();
  const get = (answer: string, segment: number, claim: number) => {
    const key = claimKey(answer, segment, claim);
    let entry = byKey.get(key);
    if (!entry) {
      entry = { key, answer, segment, claim, auto: runs.map(() => null), human: new Map() };
      byKey.set(key, entry);
    }
    return entry;
  };
  runs.forEach((grades, r) => {
    for (const g of grades) {
      for (const seg of g.segments) {
        for (const c of seg.claims) {
          if (c.status !== 'scored' || c.v === null || c.w === null) continue;
          get(g.id, seg.index, c.index).auto[r] = { v: c.v, w: c.w };
        }
      }
    }
  });
  for (const a of annotations)
    get(a.answer, a.segment, a.claim).human.set(a.annotator, { verified: a.verified, harm: a.harm });
  const claims = [...byKey.values()];
  return {
    claims,
    annotators: [...new Set(annotations.map((a) => a.annotator))].sort(),
    humanOnly: claims
      .filter((c) => c.human.size > 0 && c.auto[0] == null)
      .map(({ answer, segment, claim }) => ({ answer, segment, claim })),
    autoOnly: claims.filter((c) => c.human.size === 0 && c.auto[0] != null).length,
  };
}
