/**
 * Judge drift (`replay --rejudge M`): a grades file made with the packed judge beside the same file
 * re-made with another judge. Per judged metric, old vs new mean with the paired comparison the
 * leaderboard's pairwise table uses (`gradesMetricScores` → `buildPairwiseTable`), and the agreement of
 * the new judge with the old as a judge card, the old judge's scores standing where a human set's
 * labels would.
 */
import { sha256Hex } from '../core/index.js';
import {
  buildJudgeCard,
  type GradeRow,
  gradesMetricScores,
  type HumanSet,
  type JudgeCard,
  type JudgeLabels,
  parseGradesFile,
  RESEARCHQA_METRICS,
} from '../grade/index.js';
import { buildPairwiseTable, type PairwiseRow } from '../stats/index.js';

/** What changed on one judged metric when the judge did. */
export interface MetricDrift {
  metric: string;
  /** The paired comparison, A = the packed judge, B = the new judge. */
  comparison: PairwiseRow['comparison'];
  /** The new judge's labels against the packed judge's, as a judge card (null when the answers were regenerated: then the labels are of other answers). */
  card: JudgeCard | null;
}

export interface JudgeDrift {
  /** The output (logical path) the drift is of. */
  output: string;
  oldJudge: string;
  newJudge: string;
  /** The generator the answers were written again with (`--regenerate`), or null. */
  regenerated: string | null;
  metrics: MetricDrift[];
}

const OLD = 'packed judge';
const NEW = 'new judge';

/** The judged metrics (those an LLM judge scores), from the metric registry. */
const JUDGED = new Set(RESEARCHQA_METRICS.filter((m) => m.kind === 'judge').map((m) => m.id));

/**
 * Items keyed by row id, and by the run's place in the file when a file holds several runs (the
 * re-judged file's labels name the new judge, so runs pair by order, not by label).
 */
function keyed(rows: readonly GradeRow[], label: string): GradeRow[] {
  const runs = [...new Set(rows.map((r) => r.label ?? r.model))];
  return rows.map((r) => ({
    ...r,
    row_id: runs.length > 1 ? `${runs.indexOf(r.label ?? r.model)}\u0000${r.row_id}` : r.row_id,
    label,
  }));
}

/**
 * The drift between a packed grades file and the same grades re-made with `newJudge`. Rows are
 * paired by row id (and run); a row the judge failed on is left out of the comparison and counted
 * as a judge failure on the card, never scored 0.
 */
export function judgeDrift(o: {
  output: string;
  packed: string;
  rejudged: string;
  oldJudge: string;
  newJudge: string;
  /** The answers were written again by this generator: every metric drifts, no judge card. */
  regenerated?: string;
  version: string;
  seed?: number;
  now?: () => Date;
}): JudgeDrift {
  const old = parseGradesFile(`${o.output} (packed)`, o.packed).rows;
  const fresh = parseGradesFile(`${o.output} (re-judged)`, o.rejudged).rows;
  const metrics = gradesMetricScores([...keyed(old, OLD), ...keyed(fresh, NEW)]).filter(
    (m) => o.regenerated !== undefined || JUDGED.has(m.metric),
  );
  const table = buildPairwiseTable(metrics, { seed: o.seed ?? 0 });
  return {
    output: o.output,
    oldJudge: o.oldJudge,
    newJudge: o.newJudge,
    regenerated: o.regenerated ?? null,
    metrics: metrics.map((m) => {
      const row = table.rows.find((r) => r.metric === m.metric && r.a === OLD && r.b === NEW)!;
      const [before, after] = [
        m.systems.find((s) => s.label === OLD)!,
        m.systems.find((s) => s.label === NEW),
      ];
      return {
        metric: m.metric,
        comparison: row.comparison,
        card: o.regenerated === undefined ? agreementCard(o, m.metric, before.scores, after?.scores) : null,
      };
    }),
  };
}

type Scores = ReadonlyMap<string, number | 'failed' | 'not-applicable'>;

/** The new judge's scores as a judge's labels, the packed judge's as the reference set. */
function agreementCard(
  o: { output: string; oldJudge: string; newJudge: string; version: string; seed?: number; now?: () => Date },
  metric: string,
  before: Scores,
  after: Scores | undefined,
): JudgeCard {
  const def = RESEARCHQA_METRICS.find((m) => m.id === metric)!;
  const [lo, hi] = def.range as [number, number];
  const items = [...before]
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .map(([id, value]) => ({ id, inputs: {}, labels: [{ annotator: o.oldJudge, value }], gold: value }));
  const labels: JudgeLabels = {
    values: new Map(),
    failed: [],
    continuous: false,
    manifest: null,
    orders: new Map(),
    problems: [],
  };
  for (const item of items) {
    const v = after?.get(item.id);
    if (typeof v === 'number') labels.values.set(item.id, v);
    else if (v === 'failed') labels.failed.push(item.id);
  }
  const integral = [...items.map((i) => i.gold), ...labels.values.values()].every(
    (v) => Number.isInteger(v) && v >= lo && v <= hi,
  );
  labels.continuous = !integral;
  const set: HumanSet = {
    name: `${o.output} judged by ${o.oldJudge}`,
    dimension: metric,
    scale: integral
      ? {
          kind: 'ordinal',
          categories: Array.from({ length: hi - lo + 1 }, (_, i) => ({ code: lo + i, name: String(lo + i) })),
          meaning: def.description,
        }
      : { kind: 'interval', min: lo, max: hi, meaning: def.description },
    items,
    sha256: sha256Hex(items.map((i) => `${i.id}\t${i.gold}`).join('\n')),
    licence: 'the packed study’s',
    source: `the packed replies of ${o.oldJudge}`,
  };
  return buildJudgeCard(
    set,
    labels,
    { model: o.newJudge, prompt_version: null, kind: 'rejudge' },
    { version: o.version, seed: o.seed ?? 0, ...(o.now ? { now: o.now } : {}) },
  );
}
