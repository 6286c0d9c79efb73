/**
 * The ResearchQA parity check: grades the frozen held-out set (`heldout.json.gz`, 1,005 QASPER dev
 * rows and two answer runs) in each dataset layout citegeist reads, with the runs in the published
 * results layout, and compares every per-row value and every summary mean with the numbers the
 * published grader's own code produced on the same inputs (`reference.json`, made by
 * `make-reference.py`). Exact comparison: no tolerance. Needs ../shared/data/qasper-dev/papers.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadDatasetStrict, readRun } from '../../../src/formats/index.js';
import { aggregateGrades, type GradeRow, type GroupSummary, gradeRun } from '../../../src/grade/index.js';
import { pythonRound } from '../../../src/python-compat/index.js';
import { hubParquet } from '../hub-parquet.js';

const here = dirname(fileURLToPath(import.meta.url));
export const PAPERS_DIR = join(here, '..', '..', '..', '..', 'shared', 'data', 'qasper-dev', 'papers');
const METRICS = [
  'citation_precision',
  'section_coverage',
  'citation_accuracy',
  'refusal_correctness',
] as const;
type Metric = (typeof METRICS)[number];

interface HeldoutRow {
  row_id: string;
  paper_id: string;
  domain: string;
  question_type: string;
  question: string;
  expected_answer: string;
  expected_references: { section_label: string; alternatives: string[] }[];
  expected_refusal: boolean | null;
}
interface Heldout {
  rows: HeldoutRow[];
  runs: Record<string, { row_id: string; actual_answer: string; actual_citations: unknown[] }[]>;
}
interface Graded {
  per_row: Record<Metric, (number | null)[]>;
  summary: {
    overall: Record<string, number>;
    by_question_type: Record<string, Record<string, number>>;
    by_domain: Record<string, Record<string, number>>;
  };
}
interface Reference {
  made_with: string;
  row_ids: string[];
  groups: Record<string, Graded>;
  flat: Record<string, Graded>;
  swapped_order_rows_changed: Record<string, number>;
}

export interface LayoutResult {
  layout: string;
  rows: number;
  values: number;
  /** Per-row values that differ from the published grader's (first few, for the message). */
  mismatches: string[];
  means: number;
  meanMismatches: string[];
}

export const heldout = (): Heldout =>
  JSON.parse(gunzipSync(readFileSync(join(here, 'heldout.json.gz'))).toString('utf8')) as Heldout;
export const reference = (): Reference =>
  JSON.parse(readFileSync(join(here, 'reference.json'), 'utf8')) as Reference;

export function papersAvailable(): boolean {
  return existsSync(PAPERS_DIR);
}

/** Writes the held-out dataset in every layout and its runs in the results layout; returns paths. */
function writeInputs(set: Heldout, dir: string) {
  const rows = set.rows.map((r) => ({
    paper_id: r.paper_id,
    paper_doi: null,
    paper_s3_url: null,
    domain: r.domain,
    metadata: { section: r.expected_references[0]?.section_label ?? '', source: 'qasper' },
    row_id: r.row_id,
    question_type: r.question_type,
    question: r.question,
    expected_answer: r.expected_answer,
    expected_references: r.expected_references,
    ...(r.expected_refusal === null ? {} : { expected_refusal: r.expected_refusal }),
    judge_rubric: null,
  }));
  const envelope = (list: unknown[]) => ({
    version: '1.0',
    created_at: '2026-12-01T00:00:00+00:00',
    source_manifest: null,
    total_rows: list.length,
    total_papers_processed: new Set(set.rows.map((r) => r.paper_id)).size,
    rows: list,
    errors: [],
  });
  // The hub export (server/evals/upload_evals_dataset.sh): metadata flattened, null rubric as "".
  const hub = rows.map(({ metadata, judge_rubric, ...rest }) => ({
    ...rest,
    ...Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`metadata_${k}`, v])),
    judge_rubric: judge_rubric ?? '',
  }));
  const flat = rows.map((r) => ({
    ...r,
    expected_references: r.expected_references.flatMap((g) => g.alternatives),
  }));
  const path = (name: string) => join(dir, name);
  writeFileSync(path('eval_dataset.json'), JSON.stringify(envelope(rows), null, 2));
  writeFileSync(path('eval_dataset.hub.jsonl'), hub.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(path('eval_dataset.hub.parquet'), new Uint8Array(hubParquet(hub)));
  writeFileSync(path('eval_dataset.flat.json'), JSON.stringify(envelope(flat), null, 2));
  // One run as the harness's results file, the other as a bare list of its rows.
  const [first, ...others] = Object.keys(set.runs);
  writeFileSync(
    path(`eval_${first}.json`),
    JSON.stringify({
      run_id: '00000000-0000-0000-0000-000000000000',
      timestamp: '2026-12-01T00:00:00+00:00',
      llm_provider: 'citegeist',
      summary: {},
      rows: set.runs[first!],
      model_name: first,
      mode: 'harness',
    }),
  );
  for (const name of others) writeFileSync(path(`eval_${name}.json`), JSON.stringify(set.runs[name]));
  return {
    layouts: {
      'eval_dataset.json': path('eval_dataset.json'),
      'hub export (JSONL)': path('eval_dataset.hub.jsonl'),
      'hub export (Parquet)': path('eval_dataset.hub.parquet'),
      'earlier flat list': path('eval_dataset.flat.json'),
    } as Record<string, string>,
    runs: Object.keys(set.runs).map((name) => ({ name, path: path(`eval_${name}.json`) })),
  };
}

/** Grades every layout × run and compares with the reference; one result per layout. */
export async function compareResearchqa(): Promise<LayoutResult[]> {
  const set = heldout();
  const ref = reference();
  if (ref.row_ids.join('\n') !== set.rows.map((r) => r.row_id).join('\n')) {
    throw new Error('reference.json was not made from this heldout.json.gz: rerun make-reference.py');
  }
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-rqa-parity-'));
  const inputs = writeInputs(set, dir);
  const texts = new Map<string, string>();
  const paperText = (id: string) => {
    let t = texts.get(id);
    if (t === undefined) {
      t = readFileSync(join(PAPERS_DIR, `${id}.txt`), 'utf8');
      texts.set(id, t);
    }
    return t;
  };
  const runs = inputs.runs.map((run) => ({ ...run, rows: readRun(run.path).rows }));
  const results: LayoutResult[] = [];
  for (const [layout, file] of Object.entries(inputs.layouts)) {
    const dataset = (await loadDatasetStrict(file)).rows;
    const expected = layout === 'earlier flat list' ? ref.flat : ref.groups;
    const result: LayoutResult = { layout, rows: 0, values: 0, mismatches: [], means: 0, meanMismatches: [] };
    // Both runs in one call, so each paper is prepared once per layout.
    const { grades } = await gradeRun(
      dataset,
      runs.flatMap((r) => r.rows),
      paperText,
      { match: 'researchqa' },
    );
    for (const run of runs) {
      const mine = grades.filter((g) => g.model === run.rows[0]?.model);
      const byId = new Map(mine.map((g) => [g.row_id, g]));
      const want = expected[run.name]!;
      for (const [i, id] of ref.row_ids.entries()) {
        const got = byId.get(id);
        result.rows++;
        for (const m of METRICS) {
          result.values++;
          const w = want.per_row[m][i] ?? null;
          const g = got ? got[m] : undefined;
          if (!Object.is(g, w) && !(w === 0 && g === 0)) {
            result.mismatches.push(`${run.name} ${id} ${m}: published ${w}, citegeist ${g}`);
          }
        }
      }
      compareMeans(mine, want.summary, run.name, result);
    }
    results.push(result);
  }
  return results;
}

/** citegeist's means, rounded as the published summary rounds them, against compute_summary's. */
function compareMeans(
  grades: GradeRow[],
  summary: Graded['summary'],
  run: string,
  result: LayoutResult,
): void {
  const [model] = aggregateGrades(grades, { iterations: 1 });
  const slices: [string, Record<string, number>, GroupSummary | undefined][] = [
    ['overall', summary.overall, model?.overall],
    ...Object.entries(summary.by_question_type).map(
      ([k, v]) => [`type ${k}`, v, model?.byType[k]] as [string, Record<string, number>, GroupSummary],
    ),
    ...Object.entries(summary.by_domain).map(
      ([k, v]) => [`domain ${k}`, v, model?.byDomain[k]] as [string, Record<string, number>, GroupSummary],
    ),
  ];
  for (const [name, published, ours] of slices) {
    for (const m of METRICS) {
      const want = published[m];
      const mean = ours?.metrics[m].mean ?? null;
      const got = mean === null ? undefined : pythonRound(mean, 3);
      result.means++;
      if (got !== want)
        result.meanMismatches.push(`${run} ${name} ${m}: published ${want}, citegeist ${got}`);
    }
  }
}
