import { riskWeightedScore } from './aggregate.js';
import type { HarmLevel } from './harm.js';

/** What `repeatScores` reads of a result row (a row read back from a results file is loose JSON). */
export interface RepeatedAnswer {
  status: string;
  p: number;
  repeats: number;
  segments: readonly {
    claims: readonly {
      status: string;
      repeats?: { v: readonly (0 | 1 | null)[]; harms: readonly (HarmLevel | null)[] };
    }[];
  }[];
}

/**
 * An answer's score as each judge repeat alone would give it (`grade faithfulness --repeats K`):
 * repeat r's verdicts and harm ratings of the scored claims through the same risk-weighted
 * aggregation (`riskWeightedScore`). A repeat in which some scored claim's call failed gives no
 * score (left out, never a 0). Null when the answer was judged once or not scored. These are the
 * K scores `judgeVariance` and `rankStability` take per item.
 */
export function repeatScores(answer: RepeatedAnswer): number[] | null {
  if (answer.status !== 'scored' || answer.repeats < 2) return null;
  const claims = answer.segments.flatMap((s) => s.claims.filter((c) => c.status === 'scored'));
  if (claims.length === 0 || claims.some((c) => !c.repeats)) return null;
  const out: number[] = [];
  for (let r = 0; r < answer.repeats; r++) {
    const judged = claims.map((c) => ({
      verified: c.repeats!.v[r] ?? null,
      harm: c.repeats!.harms[r] ?? null,
    }));
    if (judged.some((c) => c.verified === null || c.harm === null)) continue;
    const { score } = riskWeightedScore([{ claims: judged as { verified: 0 | 1; harm: HarmLevel }[] }], {
      p: answer.p,
    });
    if (score !== null) out.push(score);
  }
  return out.length > 0 ? out : null;
}
