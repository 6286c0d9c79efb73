import type { QaModelSummary } from '../grade/index.js';
import { formatScore, renderTable } from '../text/index.js';

/** The summary table: per model and metric, mean F with its 95% CI, mean P and R, and counts. */
export function renderQaSummary(models: readonly QaModelSummary[]): string {
  const rows = models.flatMap((m) =>
    m.metrics.map((s) => [
      m.model,
      s.metric,
      String(s.scored),
      formatScore(s.f.estimate, 4),
      s.f.lower === null ? 'n/a' : `[${formatScore(s.f.lower, 4)}, ${formatScore(s.f.upper, 4)}]`,
      formatScore(s.precision, 4),
      formatScore(s.recall, 4),
      String(s.notApplicable),
      String(s.failed),
    ]),
  );
  return renderTable(
    [
      { header: 'model' },
      { header: 'metric' },
      { header: 'n', align: 'right' },
      { header: 'F', align: 'right' },
      { header: '95% CI' },
      { header: 'P', align: 'right' },
      { header: 'R', align: 'right' },
      { header: 'n/a', align: 'right' },
      { header: 'failed', align: 'right' },
    ],
    rows,
  );
}
