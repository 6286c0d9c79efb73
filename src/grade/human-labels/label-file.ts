import { CitegeistError, quoteValue, type RunManifest } from '../../core/index.js';
import { parseCsv, parseJsonl, takeManifest } from '../../io/index.js';
import { describeScale, type HumanSet, parseLabel } from './human-set.js';
import { rescaledScoreDifferences } from './score-differences.js';

/**
 * A judge's labels for the items of a human set, read from any file that maps item ids to labels:
 * JSON lines `{"id": …, "label": …}` (the output of `meta-eval judge`, after its manifest, or any
 * other tool's), or CSV/TSV with `id` and `label` columns. A `score` field/column instead of `label`
 * holds a continuous score on an ordered scale's range (e.g. a rescaled score difference); a row
 * with `"status": "failed"` is a judge failure (counted, never a label). Rows of a pointwise judge on
 * a pair (`answer_scores: [s1, s2]`, written by `meta-eval judge`) become continuous preferences by
 * RAGChecker's protocol (`rescaledScoreDifferences`, to the scale's range).
 */
export interface JudgeLabels {
  /** id → the judge's value. */
  values: Map<string, number>;
  /** Ids the judge failed on. */
  failed: string[];
  /** Whether the values are continuous scores rather than the scale's categories. */
  continuous: boolean;
  manifest: RunManifest | null;
  /** A pair judged in both orders: each order's verdict for answer 2 (for the position-flip rate). */
  orders: Map<string, { first: number; second: number }>;
  /** Rows that could not be read (no id, not JSON): line and reason; they are left out. */
  problems: { line: number; problem: string }[];
}

const EXAMPLES = 5;

export function readLabelFile(text: string, path: string, set: HumanSet): JudgeLabels {
  const rows = text.trimStart().startsWith('{') ? jsonRows(text, path) : delimitedRows(text, path);
  const out: JudgeLabels = {
    values: new Map(),
    failed: [],
    continuous: false,
    manifest: rows.manifest,
    orders: new Map(),
    problems: [],
  };
  const pairScores = new Map<string, { answer1: number | null; answer2: number | null }>();
  const known = new Set(set.items.map((i) => i.id));
  const unmatched: string[] = [];
  let matched = 0;
  let scores = 0;
  let labels = 0;
  for (const row of rows.rows) {
    if ('problem' in row) {
      out.problems.push(row);
      continue;
    }
    if (!known.has(row.id)) {
      unmatched.push(row.id);
      continue;
    }
    matched++;
    const where = `${path} line ${row.line}`;
    if (row.orders) out.orders.set(row.id, row.orders);
    if (row.failed) out.failed.push(row.id);
    else if (row.answerScores) {
      scores++;
      pairScores.set(row.id, { answer1: row.answerScores[0], answer2: row.answerScores[1] });
    } else if (row.score !== undefined) {
      scores++;
      out.values.set(row.id, parseScore(set, row.score, where));
    } else {
      labels++;
      out.values.set(row.id, parseLabel(set.scale, row.label, where));
    }
  }
  if (unmatched.length > 0) {
    throw new CitegeistError(
      'HUMAN_LABELS_ID_MISMATCH',
      `${path}: ${matched} of ${matched + unmatched.length} ids match items of the ${set.name}${set.dimension ? ` (${set.dimension})` : ''} set; ${unmatched.length} do not, e.g. ${unmatched
        .slice(0, EXAMPLES)
        .map((id) => quoteValue(id))
        .join(', ')}. The set's ids look like ${set.items
        .slice(0, 2)
        .map((i) => quoteValue(i.id))
        .join(', ')}.`,
      'Label the set’s own item ids (`meta-eval judge --set <set> --list-items` prints them), or pick the set the file was made for.',
    );
  }
  if (scores > 0 && labels > 0) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${path} mixes ${labels} categorical labels with ${scores} continuous scores.`,
      'Give every row a `label` (a category) or every row a `score` (a number), not both kinds.',
    );
  }
  out.continuous = scores > 0;
  if (pairScores.size > 0) {
    const codes = set.scale.categories?.map((c) => c.code) ?? [set.scale.min ?? -1, set.scale.max ?? 1];
    const range: [number, number] = [Math.min(...codes), Math.max(...codes)];
    for (const [id, v] of rescaledScoreDifferences(pairScores, range)) out.values.set(id, v);
  }
  return out;
}

function parseScore(set: HumanSet, raw: unknown, where: string): number {
  const codes = set.scale.categories?.map((c) => c.code);
  const ordered = set.scale.kind !== 'nominal' && set.scale.kind !== 'binary';
  const min = codes ? Math.min(...codes) : (set.scale.min ?? -Infinity);
  const max = codes ? Math.max(...codes) : (set.scale.max ?? Infinity);
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (ordered && Number.isFinite(value) && value >= min && value <= max) return value;
  throw new CitegeistError(
    'HUMAN_LABEL_OUT_OF_SCALE',
    `${where}: score ${quoteValue(raw)} is not ${ordered ? `a number in [${min}, ${max}]` : 'allowed'} on the ${set.scale.kind} scale (${describeScale(set.scale)}).`,
    ordered
      ? 'Rescale the scores to the scale’s range, or give categorical labels.'
      : 'A nominal scale takes categorical labels only: write `label`, not `score`.',
  );
}

type Row =
  | {
      line: number;
      id: string;
      label?: unknown;
      score?: unknown;
      answerScores?: [number, number];
      orders?: { first: number; second: number };
      failed: boolean;
    }
  | { line: number; problem: string };

function jsonRows(text: string, path: string): { manifest: RunManifest | null; rows: Row[] } {
  const { manifest, rows } = takeManifest(parseJsonl(text), path, false);
  return {
    manifest,
    rows: rows.map((l): Row => {
      if (!l.ok) return { line: l.line, problem: `not JSON (${l.error})` };
      const v = l.value as Record<string, unknown>;
      const id = typeof v.id === 'string' || typeof v.id === 'number' ? String(v.id) : null;
      if (id === null) return { line: l.line, problem: 'no "id"' };
      const failed = v.status === 'failed';
      const scores = v.answer_scores;
      const pair =
        Array.isArray(scores) &&
        scores.length === 2 &&
        scores.every((x) => typeof x === 'number' && Number.isFinite(x));
      if (!failed && v.label === undefined && v.score === undefined && !pair)
        return { line: l.line, problem: 'neither "label" nor "score" nor "answer_scores"' };
      const o = v.orders as { first?: unknown; second?: unknown } | undefined;
      const orders =
        o && typeof o.first === 'number' && typeof o.second === 'number'
          ? { orders: { first: o.first, second: o.second } }
          : {};
      const value = pair
        ? { answerScores: scores as [number, number] }
        : v.score !== undefined
          ? { score: v.score }
          : { label: v.label };
      return {
        line: l.line,
        id,
        ...value,
        ...orders,
        failed,
      };
    }),
  };
}

function delimitedRows(text: string, path: string): { manifest: null; rows: Row[] } {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const { header, records } = parseCsv(text, path, firstLine.includes('\t') ? '\t' : ',');
  const value = header.includes('score') ? 'score' : 'label';
  if (!header.includes('id') || !header.includes(value)) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${path} has columns ${header.map((h) => quoteValue(h)).join(', ')}; a labels file needs "id" and "label" (or "score").`,
      'Name the columns id and label, or write JSON lines {"id": …, "label": …}.',
    );
  }
  return {
    manifest: null,
    rows: records.map((r): Row => {
      const id = r.values.id?.trim() ?? '';
      if (id === '') return { line: r.line, problem: 'empty id' };
      return { line: r.line, id, [value]: r.values[value], failed: false };
    }),
  };
}
