import { CitegeistError, isManifestRecord } from '../core/index.js';
import { parseJsonl, takeManifest } from '../io/index.js';
import type { ItemScore, MetricScores } from '../stats/index.js';
import { argueMetricScores } from './argue/argue-pairwise.js';
import { parseArgueTsv, TSV_HEADER } from './argue/argue-tsv.js';
import type { QaMetricId, QaScoreRow } from './qa/score-answers.js';
import { qaValues } from './qa/score-answers.js';
import { parseGradesFile } from './researchqa/grades-io.js';
import { gradesMetricScores } from './researchqa/grades-pairwise.js';
import { gradesRepeatedScores, type MetricRepeats } from './researchqa/grades-repeats.js';
import { type RepeatedAnswer, repeatScores } from './vetscore/repeat-scores.js';

/** The kinds of per-item score files `compare` pairs (TREC runs are scored from qrels instead). */
export type ScoreFileKind = 'grades' | 'argue' | 'faithfulness' | 'qa-eval';

/** A score file as given: the name the user typed, its text, and for ARGUE its `.meta.json` text. */
export interface ScoreFileText {
  name: string;
  text: string;
  /** `<scores>.meta.json` of `reports score`: its failed topics count as failed, not as unshared. */
  meta?: string | null;
}

/** One file's systems, per metric, as paired samples; `ids` is every item it holds. */
export interface ScoreFile {
  name: string;
  kind: ScoreFileKind;
  datasetSha256: string | null;
  ids: Set<string>;
  metrics: MetricScores[];
  /**
   * Per judged metric and system, each item's score by each judge repeat alone (files judged with
   * --repeats K: faithfulness results, grades files).
   */
  repeats?: MetricRepeats[];
}

/**
 * The resampling seed a comparison of score files of this kind uses when none is given: the default
 * of the command that summarizes such files, so `compare` prints the figures that command prints
 * (ARGUE scores: `reports score`, 42; grades, faithfulness and qa-eval files: `leaderboard`,
 * `grade`, `report` and `qa-eval`, 0).
 */
export function defaultComparisonSeed(kind: ScoreFileKind): number {
  return kind === 'argue' ? 42 : 0;
}

/** Which kind of score file a text is (null: none of them, e.g. a TREC run). */
export function scoreFileKind(text: string): ScoreFileKind | null {
  if ((text.split(/\r?\n/, 1)[0] ?? '').trim() === TSV_HEADER) return 'argue';
  const lines = parseJsonl(text.slice(0, 200_000)).slice(0, 2);
  const first = lines.find((l) => l.ok && !isManifestRecord(l.value));
  const head = lines[0]?.ok ? (lines[0].value as Record<string, unknown>) : null;
  if (isManifestRecord(head) && (head as { kind?: unknown }).kind === 'grades') return 'grades';
  const v = first?.ok ? (first.value as Record<string, unknown> | null) : null;
  if (!v || typeof v !== 'object') return null;
  if ('status' in v && 'citation_precision' in v) return 'grades';
  if ('row_id' in v && 'n_references' in v && 'status' in v) return 'qa-eval';
  if ('id' in v && 'segments' in v && 'score' in v && 'status' in v) return 'faithfulness';
  return null;
}

/** Reads a score file of any kind into per-metric paired samples (see `compareScoreFiles`). */
export function readScoreFile(file: ScoreFileText): ScoreFile {
  const kind = scoreFileKind(file.text);
  switch (kind) {
    case 'grades': {
      const { manifest, rows } = parseGradesFile(file.name, file.text);
      const repeats = gradesRepeatedScores(rows);
      return {
        name: file.name,
        kind,
        datasetSha256: manifest?.inputs.dataset?.sha256 ?? null,
        ids: new Set(rows.map((r) => r.row_id)),
        metrics: gradesMetricScores(rows),
        ...(repeats.length > 0 ? { repeats } : {}),
      };
    }
    case 'argue':
      return argueScoreFile(file);
    case 'faithfulness':
      return faithfulnessScoreFile(file);
    case 'qa-eval':
      return qaScoreFile(file);
    default:
      throw new CitegeistError(
        'INVALID_INPUT',
        `${file.name} is not a score file citegeist compares item by item.`,
        'Give grades files (`grade`), ARGUE scores TSVs (`reports score`), faithfulness results (`grade faithfulness`) or qa-eval scores (`qa-eval`); TREC runs need --qrels.',
      );
  }
}

/** Per-topic ratio metrics of every run of an ARGUE TSV; the meta's failed topics are 'failed'. */
function argueScoreFile(file: ScoreFileText): ScoreFile {
  const rows = parseArgueTsv(file.text, file.name).filter((r) => r.requestId !== 'all');
  const failed = failedTopics(file);
  const ids = new Set(rows.map((r) => r.requestId));
  for (const topics of failed.values()) for (const t of topics) ids.add(t);
  return {
    name: file.name,
    kind: 'argue',
    datasetSha256: null,
    ids,
    metrics: argueMetricScores(rows, failed),
  };
}

function failedTopics(file: ScoreFileText): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!file.meta) return out;
  let meta: unknown;
  try {
    meta = JSON.parse(file.meta);
  } catch {
    throw new CitegeistError(
      'INVALID_JSON',
      `${file.name}.meta.json is not JSON.`,
      'Score the judgments again with `citegeist reports score` (it rewrites the meta file).',
    );
  }
  const runs = (meta as { runs?: unknown }).runs;
  for (const r of Array.isArray(runs) ? runs : []) {
    const topics = (r as { failed_topics?: unknown }).failed_topics;
    out.set(
      String((r as { run_id?: unknown }).run_id),
      (Array.isArray(topics) ? topics : []).map((t) =>
        String(typeof t === 'object' && t !== null ? (t as { topicId?: unknown }).topicId : t),
      ),
    );
  }
  return out;
}

/** Rows of a JSONL score file after its optional manifest; a bad line is an error naming it. */
function jsonRows(
  file: ScoreFileText,
  what: string,
): { label: string | null; rows: Record<string, unknown>[] } {
  const { manifest, rows } = takeManifest(parseJsonl(file.text), file.name, false);
  return {
    label: manifest?.label ?? null,
    rows: rows.map((l) => {
      if (!l.ok || typeof l.value !== 'object' || l.value === null) {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${file.name} line ${l.line} is not ${what}.`,
          'Fix or remove the line.',
        );
      }
      return l.value as Record<string, unknown>;
    }),
  };
}

/** A `grade faithfulness` results file: one system (its label, else the file name), one metric. */
function faithfulnessScoreFile(file: ScoreFileText): ScoreFile {
  const { label, rows } = jsonRows(file, 'a faithfulness result');
  const scores = new Map<string, ItemScore>();
  const repeats = new Map<string, number[]>();
  // A resumed file may hold an answer twice (a failed answer retried): the later row counts.
  for (const r of rows) {
    const id = String(r.id);
    if (r.status === 'scored' && typeof r.score === 'number') scores.set(id, r.score);
    else scores.set(id, r.status === 'not-applicable' ? 'not-applicable' : 'failed');
    const k = Array.isArray(r.segments) ? repeatScores(r as unknown as RepeatedAnswer) : null;
    if (k) repeats.set(id, k);
    else repeats.delete(id);
  }
  const system = label ?? file.name;
  return {
    name: file.name,
    kind: 'faithfulness',
    datasetSha256: null,
    ids: new Set(scores.keys()),
    metrics: [{ metric: 'faithfulness', higherIsBetter: true, systems: [{ label: system, scores }] }],
    ...(repeats.size > 0
      ? {
          repeats: [
            { metric: 'faithfulness', higherIsBetter: true, systems: [{ label: system, items: repeats }] },
          ],
        }
      : {}),
  };
}

/** A `qa-eval` scores file: per model, the F of each metric scored. */
function qaScoreFile(file: ScoreFileText): ScoreFile {
  const rows = jsonRows(file, 'a qa-eval score row').rows as unknown as QaScoreRow[];
  const models = [...new Set(rows.map((r) => r.model))];
  const metricIds = [...new Set(rows.flatMap((r) => Object.keys(r.status ?? {})))] as QaMetricId[];
  const metrics = metricIds.map((metric) => ({
    metric,
    higherIsBetter: true,
    systems: models.map((model) => {
      const scores = new Map<string, ItemScore>();
      for (const r of rows) {
        if (r.model !== model) continue;
        const v = qaValues(r, metric);
        const status = r.status?.[metric];
        scores.set(r.row_id, v ? v[2] : status === 'not-applicable' ? 'not-applicable' : 'failed');
      }
      return { label: model, scores };
    }),
  }));
  return {
    name: file.name,
    kind: 'qa-eval',
    datasetSha256: null,
    ids: new Set(rows.map((r) => r.row_id)),
    metrics,
  };
}

/**
 * The metrics of several score files of one kind merged into one table's input: per metric every
 * file's systems; a label two files share is suffixed with its file name, so no system is merged
 * into another.
 */
export function mergeScoreFiles(files: readonly ScoreFile[]): {
  metrics: MetricScores[];
  repeats: MetricRepeats[];
} {
  const kinds = new Set(files.map((f) => f.kind));
  if (kinds.size > 1) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `The files to compare are of different kinds (${files.map((f) => `${f.name}: ${f.kind}`).join(', ')}).`,
      'Compare files of one kind: grades with grades, ARGUE scores with ARGUE scores, and so on.',
    );
  }
  const count = new Map<string, number>();
  for (const f of files)
    for (const l of new Set(f.metrics.flatMap((m) => m.systems.map((s) => s.label))))
      count.set(l, (count.get(l) ?? 0) + 1);
  const rename = (label: string, f: ScoreFile) => (count.get(label)! > 1 ? `${label} (${f.name})` : label);
  // Per judged metric, every file's systems judged K times (renamed as in the table).
  const repeats: MetricRepeats[] = [];
  for (const f of files) {
    for (const m of f.repeats ?? []) {
      let into = repeats.find((r) => r.metric === m.metric);
      if (!into) {
        into = { metric: m.metric, higherIsBetter: m.higherIsBetter, systems: [] };
        repeats.push(into);
      }
      into.systems.push(...m.systems.map((r) => ({ ...r, label: rename(r.label, f) })));
    }
  }
  const order: string[] = [];
  const byMetric = new Map<string, MetricScores & { systems: MetricScores['systems'][number][] }>();
  for (const f of files) {
    for (const m of f.metrics) {
      if (!byMetric.has(m.metric)) {
        order.push(m.metric);
        byMetric.set(m.metric, { metric: m.metric, higherIsBetter: m.higherIsBetter, systems: [] });
      }
      for (const s of m.systems) {
        byMetric.get(m.metric)!.systems.push({ label: rename(s.label, f), scores: s.scores });
      }
    }
  }
  const merged = order.map((m) => byMetric.get(m)!).filter((m) => m.systems.length > 1);
  if (merged.length === 0) {
    throw new CitegeistError(
      'COMPARE_TOO_FEW_SHARED',
      `${files.map((f) => f.name).join(' and ')} have no metric that two systems both report.`,
      'Compare files that score the same metric (e.g. two qa-eval outputs with the same --metric).',
    );
  }
  return { metrics: merged, repeats };
}
