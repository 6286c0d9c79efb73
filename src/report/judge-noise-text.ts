import type { JudgeVariance, RankStability } from '../stats/index.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/**
 * The judge's share of a comparison as text (files judged K times): per system the judge's
 * within-item spread and how often its verdict changed; how often each system keeps its rank over
 * resamples of items and repeats; and, per pair, how often the difference is significant when only
 * the judge's repeats are redrawn — marked when significance depends on the judge's noise.
 */
export function renderJudgeNoise(judge: {
  /** The judged metric (a file may hold several: the rubric judge's factual_accuracy and completeness). */
  metric: string;
  variance: readonly (JudgeVariance & { label: string })[];
  stability: RankStability;
}): string {
  const s = judge.stability;
  const lines = [
    `judge noise on ${judge.metric} (each item judged ${Math.max(...judge.variance.map((v) => v.repeats))} times; ${s.resamples.toLocaleString('en-US')} resamples, seed ${s.seed}, ${s.items} shared items)`,
  ];
  for (const v of judge.variance) {
    const sd = v.withinItemSd === null ? 'n/a' : v.withinItemSd.toFixed(3);
    lines.push(
      `  ${v.label}: within-item sd ${sd}; verdict changed on ${pct(v.verdictChangeShare)} of ${v.items} items`,
    );
  }
  for (const r of s.systems)
    lines.push(`  rank ${r.rank} ${r.label}: keeps its rank in ${pct(r.keepsRank)} of resamples`);
  for (const p of s.pairs) {
    const verdict = p.dependsOnJudge
      ? 'DEPENDS ON THE JUDGE: significant in some redraws of its repeats and not in others'
      : p.significantShare >= 0.95
        ? 'stays significant when the judge is redrawn'
        : 'stays not significant when the judge is redrawn';
    lines.push(
      `  ${p.a} vs ${p.b}: significant (t-test) in ${pct(p.significantShare)} of redraws — ${verdict}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One file's judge noise (`grade --judge M --repeats K`): per judged metric and run, the judge's
 * within-row spread and the share of rows whose score changed between its K calls.
 */
export function renderJudgeVariance(
  noise: readonly (JudgeVariance & { metric: string; label: string })[],
): string {
  if (noise.length === 0) return '';
  const lines = noise.map((v) => {
    const sd = v.withinItemSd === null ? 'n/a' : v.withinItemSd.toFixed(3);
    return `  ${v.metric} (${v.label}): ${v.repeats} repeats: within-row sd ${sd}; score changed between repeats on ${pct(v.verdictChangeShare)} of ${v.items} rows`;
  });
  return `rubric judge noise\n${lines.join('\n')}\n`;
}
