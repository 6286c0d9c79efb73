/**
 * What `replay --rejudge` prints and writes: per re-judged grades file and judged metric, the
 * packed judge's mean beside the new judge's with the paired comparison, and the agreement card.
 */
import { join } from 'node:path';
import { cardSummaryLine, renderJudgeCard } from '../grade/index.js';
import { writeFileAtomic } from '../io/index.js';
import { formatScore } from '../text/index.js';
import type { JudgeDrift } from './judge-drift.js';

const num = (v: number | null) => (v === null ? 'n/a' : formatScore(v));

/** The drift as text, one block per re-judged output. */
export function renderDrift(drift: readonly JudgeDrift[]): string {
  return drift
    .map((d) =>
      [
        `drift of ${d.output}: packed judge ${d.oldJudge} → ${d.newJudge}`,
        ...d.metrics.flatMap((m) => {
          const c = m.comparison;
          const ci = c.delta.percentile
            ? ` [${num(c.delta.percentile[0])}, ${num(c.delta.percentile[1])}]`
            : '';
          return [
            `  ${m.metric}: mean ${num(c.meanA)} (packed) → ${num(c.meanB)} (new) over ${c.n} paired rows; packed − new ${num(c.delta.estimate)}${ci}, ${c.test.name} p ${num(c.test.p)}; new judge higher on ${c.losses}, lower on ${c.wins}, same on ${c.ties}${c.dropped.failed > 0 ? `; ${c.dropped.failed} rows left out (a judge failed)` : ''}`,
            `    ${cardSummaryLine(m.card)}`,
          ];
        }),
      ].join('\n'),
    )
    .join('\n\n');
}

/** Writes `drift.json` and one judge card per output and metric (`.json` and `.txt`) into `dir`. */
export function writeDrift(dir: string, drift: readonly JudgeDrift[]): string[] {
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileAtomic(join(dir, name), text);
    written.push(name);
  };
  write('drift.json', `${JSON.stringify(drift, null, 2)}\n`);
  for (const d of drift) {
    const stem = d.output.replace(/[^A-Za-z0-9._-]+/g, '_');
    for (const m of d.metrics) {
      write(`${stem}.${m.metric}.judge-card.json`, `${JSON.stringify(m.card, null, 2)}\n`);
      write(`${stem}.${m.metric}.judge-card.txt`, `${renderJudgeCard(m.card)}\n`);
    }
  }
  return written;
}
