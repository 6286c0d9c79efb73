import type { ArgueJudgeNoise } from '../grade/index.js';
import { renderJudgeNoise } from './judge-noise-text.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const sd = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));

/**
 * The ARGUE judge's noise as `reports score` prints it (reports judged K times): per metric, the
 * rank stability block `compare` prints (`renderJudgeNoise`, which has each run's spread) when two
 * or more runs were judged K times, else each run's within-topic spread; then, per run and judgment
 * type, how often the judge changed a single verdict between repeats.
 */
export function renderArgueJudgeNoise(noise: ArgueJudgeNoise): string {
  const parts = [`ARGUE judge noise (each report judged ${noise.repeats} times)\n`];
  const compared = new Map(noise.comparison.map((c) => [c.metric, c]));
  const metrics = [...new Set(noise.topics.map((t) => t.metric))];
  for (const metric of metrics) {
    const c = compared.get(metric);
    if (c) {
      parts.push(renderJudgeNoise(c));
      continue;
    }
    for (const t of noise.topics.filter((x) => x.metric === metric))
      parts.push(
        `  ${metric} (${t.label}): within-topic sd ${sd(t.withinItemSd)}; value changed between repeats on ${pct(t.verdictChangeShare)} of ${t.items} topics\n`,
      );
  }
  for (const j of noise.judgments)
    parts.push(
      `  ${j.judgment_type} (${j.label}): verdict changed between repeats on ${pct(j.verdictChangeShare)} of ${j.items} judgments\n`,
    );
  return parts.join('');
}
