import { dirname, relative, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { certifyJudges, distinctJudges, judgeOfManifest, uncertifiedMetrics } from '../../grade/index.js';
import { checkFinished, fingerprint, writeFileAtomic } from '../../io/index.js';
import { VERSION } from '../../version.js';
import { buildReportData } from '../build-report.js';
import type { PaperTextMode } from '../paper-excerpts.js';
import { reportAssets } from '../report-assets.js';
import type { ReportData } from '../report-data.js';
import { RECIPE_PATH_LISTS, RECIPE_PATHS, type ReportRecipe, renderReportPage } from '../report-page.js';
import { ReportReader } from './report-reader.js';

/** The options of `citegeist report` (paths relative to `cwd`). */
export interface ReportOptions {
  grades?: string[];
  runs?: string[];
  dataset?: string;
  corpus?: string;
  papers?: string;
  faithfulness?: string[];
  judgments?: string[];
  nuggets?: string;
  out: string;
  title?: string;
  /** Lines for the report's "how it was made" table (e.g. the demo's answering model). */
  facts?: [string, string][];
  paperText: PaperTextMode;
  seed: number;
  /** Show grades and runs still being written (their writer holds the lock), marked partial. */
  allowPartial?: boolean;
  /** Judge cards to show beside the judged metrics (else found in the workspace). */
  judgeCard?: string[];
  /** Refuse the report when a judge's card is missing or agrees with people less than this. */
  requireAgreement?: number;
}

export const PAPER_TEXT_MODES: readonly PaperTextMode[] = ['auto', 'full', 'context', 'none'];

function check(o: ReportOptions): void {
  if (!o.grades?.length && !o.runs?.length && !o.faithfulness?.length && !o.judgments?.length) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      'A report needs something to show: no --grades, --runs, --faithfulness or --judgments was given.',
      'Give grades files (`citegeist grade … --out grades.jsonl`), VETSCORE output or ARGUE judgments, e.g. `citegeist report --grades grades.jsonl --dataset dataset.jsonl --corpus corpus.sqlite --out report.html`.',
    );
  }
  if (o.corpus && o.papers) {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      'Both --corpus and --papers were given.',
      'Give one source of papers.',
    );
  }
  if (!PAPER_TEXT_MODES.includes(o.paperText)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--paper-text ${o.paperText} is not one of ${PAPER_TEXT_MODES.join(', ')}.`,
      'Use --paper-text auto (whole papers while they are small, else the passages around each highlight).',
    );
  }
}

/** Reads every input, builds the report's data (nothing written). */
export async function buildReportFromFiles(
  o: ReportOptions,
  cwd: string,
): Promise<{ data: ReportData; read: string[] }> {
  check(o);
  // A grades or run file whose writer still holds its lock is a part of a run: refused, or shown
  // with a note when asked for (--allow-partial).
  const partial = [...(o.grades ?? []), ...(o.runs ?? [])]
    .map((f) => checkFinished(resolve(cwd, f), 'grades or run file', o.allowPartial === true))
    .filter((p) => p !== null);
  const reader = new ReportReader(cwd);
  const grades = (o.grades ?? []).map((f) => reader.grades(f));
  const runs = (o.runs ?? []).map((f) => reader.run(f));
  const dataset = o.dataset ? await reader.dataset(o.dataset) : null;
  const answered = new Set([
    ...grades.flatMap((g) => g.rows.map((r) => r.row.row_id)),
    ...runs.flatMap((r) => r.rows.map((x) => x.row_id)),
  ]);
  const paperIds = [
    ...(dataset ?? []).filter((r) => answered.has(r.row_id)).map((r) => r.paper_id),
    ...grades.flatMap((g) => g.rows.map((r) => r.row.paper_id)),
  ];
  const papers = await reader.papers(paperIds, {
    ...(o.corpus ? { corpus: o.corpus } : {}),
    ...(o.papers ? { papers: o.papers } : {}),
  });
  const faithfulness = o.faithfulness?.map((f) => reader.faithfulness(f));
  const judgments = o.judgments?.length
    ? {
        rows: o.judgments.flatMap((f) => reader.judgments(f)),
        banks: o.nuggets ? reader.nuggets(o.nuggets) : [],
      }
    : undefined;
  if (judgments && !o.nuggets)
    reader.sources.notes.push(
      'No --nuggets given: only the nuggets the judgments name are shown, and none counts as met.',
    );
  for (const p of partial) {
    reader.sources.notes.push(
      `PARTIAL: ${relative(cwd, p.path) || p.path} was still being written by ${p.writer} when this report was made; it shows only the rows written by then (--allow-partial).`,
    );
  }
  // Beside the judged metrics: each judge's card (given, else found beside the files or in the workspace).
  const judged = [...grades, ...(faithfulness ?? [])];
  const judgeCards = certifyJudges(
    distinctJudges(judged.map((f) => judgeOfManifest(f.manifest))),
    {
      cwd,
      given: o.judgeCard ?? [],
      near: judged.map((f) => dirname(resolve(cwd, f.name))),
    },
    o.requireAgreement,
    // the report shows numbers already made: an uncertified judge's metrics are shown, not ranked
    'mark',
  );
  const unranked = uncertifiedMetrics(judgeCards);
  // a card shown is an input: `serve` rebuilds the report when it changes
  for (const c of judgeCards) if (c.card) reader.sources.read.push(resolve(cwd, c.card));
  const labels = [
    ...new Set(grades.flatMap((g) => g.rows.map((r) => r.label ?? g.manifest?.label ?? r.row.model))),
  ];
  const data = buildReportData({
    title:
      o.title ??
      (labels.length
        ? `citegeist report: ${labels.slice(0, 4).join(', ')}${labels.length > 4 ? ', …' : ''}`
        : 'citegeist report'),
    tool: `citegeist ${VERSION}`,
    inputs: reader.sources.inputs,
    notes: reader.sources.notes,
    seed: o.seed,
    facts: [...(o.facts ?? []), ['paper text', o.paperText], ['bootstrap seed', String(o.seed)]],
    ...(grades.length || runs.length
      ? { grades: { grades, runs, dataset, papers, paperText: o.paperText, unranked } }
      : {}),
    ...(faithfulness ? { faithfulness } : {}),
    ...(judgments ? { judgments } : {}),
    judgeCards,
  });
  return { data, read: reader.sources.read };
}

/** The recipe `citegeist serve` uses to rebuild the report: options and input hashes, relative to it. */
function recipeOf(o: ReportOptions, cwd: string, read: readonly string[], outDir: string): ReportRecipe {
  const rel = (p: string) => relative(outDir, resolve(cwd, p)) || '.';
  const options: ReportRecipe['options'] = { paperText: o.paperText, seed: o.seed };
  for (const k of RECIPE_PATH_LISTS) if (o[k]?.length) options[k] = o[k]!.map(rel);
  if (o.requireAgreement !== undefined) options.requireAgreement = o.requireAgreement;
  for (const k of RECIPE_PATHS) if (o[k] !== undefined) options[k] = rel(o[k]!);
  if (o.title !== undefined) options.title = o.title;
  if (o.facts) options.facts = o.facts;
  const inputs = [...new Set(read)].flatMap((abs) => {
    const f = fingerprint(abs);
    return f ? [{ path: relative(outDir, abs) || '.', ...f }] : [];
  });
  return { options, inputs };
}

/** Builds and writes the report (atomically: a reader never sees half a file). */
export async function writeReport(
  o: ReportOptions,
  cwd: string,
): Promise<{ path: string; bytes: number; data: ReportData }> {
  const { data, read } = await buildReportFromFiles(o, cwd);
  const path = resolve(cwd, o.out);
  const recipe = recipeOf(o, cwd, read, dirname(path));
  // The corpus and folders were hashed for the recipe: the provenance table shows those hashes too.
  const hashes = new Map(recipe.inputs.map((i) => [resolve(dirname(path), i.path), i.sha256]));
  for (const input of data.inputs) input.sha256 ??= hashes.get(resolve(cwd, input.name)) ?? null;
  const html = renderReportPage(data, reportAssets(), recipe);
  writeFileAtomic(path, html);
  return { path, bytes: Buffer.byteLength(html), data };
}

/** Options read back from a recipe (paths relative to the report's folder). */
export function optionsFromRecipe(recipe: ReportRecipe, out: string): ReportOptions {
  const o = recipe.options;
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  const string = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const paperText = string(o.paperText) as PaperTextMode | undefined;
  const opts: ReportOptions = {
    out,
    paperText: paperText && PAPER_TEXT_MODES.includes(paperText) ? paperText : 'auto',
    seed: typeof o.seed === 'number' ? o.seed : 0,
  };
  for (const k of RECIPE_PATH_LISTS) {
    const v = strings(o[k]);
    if (v) opts[k] = v;
  }
  if (typeof o.requireAgreement === 'number') opts.requireAgreement = o.requireAgreement;
  for (const k of [...RECIPE_PATHS, 'title'] as const) {
    const v = string(o[k]);
    if (v !== undefined) opts[k] = v;
  }
  if (Array.isArray(o.facts)) {
    opts.facts = o.facts.filter(
      (f): f is [string, string] => Array.isArray(f) && typeof f[0] === 'string' && typeof f[1] === 'string',
    );
  }
  return opts;
}
